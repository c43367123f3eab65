import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TIP_OPTIONS, type PublicProfile, type TipOption } from '@ques/contracts/core';
import { json, mockFetch } from '../../test/fetch-mock';
import { AuthProvider } from '../../lib/auth/auth-context';
import { MemoryRouter } from 'react-router-dom';
import AskModal from './AskModal';
import { TipSelector, type TipValue } from './TipSelector';
import { parsePreset, tipAmount } from './validate';

function Harness({ options = DEFAULT_TIP_OPTIONS }: { options?: TipOption[] }) {
  const [value, setValue] = useState<TipValue>({ preset: null, custom: '' });
  return (
    <>
      <TipSelector options={options} value={value} onChange={setValue} />
      <output data-testid="value">{JSON.stringify(value)}</output>
      <output data-testid="amount">{tipAmount({ tippingEnabled: true, ...value })}</output>
    </>
  );
}
const value = () => JSON.parse(screen.getByTestId('value').textContent ?? '{}') as TipValue;
const amount = () => Number(screen.getByTestId('amount').textContent);

describe('<TipSelector> (spec §2)', () => {
  it('offers the presets and a custom amount', () => {
    render(<Harness />);
    expect(screen.getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual(['$0', '$5', '$25', '$50']);
    expect(screen.getByLabelText('Custom amount ($)')).toBeInTheDocument();
  });

  it('a preset sets the amount and clears the custom field', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.type(screen.getByLabelText('Custom amount ($)'), '12');
    expect(amount()).toBe(12);
    await user.click(screen.getByRole('radio', { name: '$50' }));
    expect(value()).toEqual({ preset: '$50', custom: '' });
    expect(amount()).toBe(50);
    expect(screen.getByLabelText('Custom amount ($)')).toHaveValue(null);
  });

  it('typing a custom amount clears the chosen preset and sets the tip to that number', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('radio', { name: '$5' }));
    expect(screen.getByRole('radio', { name: '$5' })).toBeChecked();
    await user.type(screen.getByLabelText('Custom amount ($)'), '7');
    expect(value()).toEqual({ preset: null, custom: '7' });
    expect(screen.getByRole('radio', { name: '$5' })).not.toBeChecked();
    expect(amount()).toBe(7);
  });

  it('has no custom field when the owner does not offer "Custom"', () => {
    render(<Harness options={DEFAULT_TIP_OPTIONS.filter((o) => o.value !== 'Custom')} />);
    expect(screen.queryByLabelText('Custom amount ($)')).not.toBeInTheDocument();
  });

  it('parses presets by stripping the dollar sign (spec §3)', () => {
    expect(parsePreset('$0')).toBe(0);
    expect(parsePreset('$250')).toBe(250);
    expect(parsePreset('$1000')).toBe(1000);
  });

  it('counts no tip when tipping is off, whatever was chosen', () => {
    expect(tipAmount({ tippingEnabled: false, preset: '$50', custom: '' })).toBe(0);
  });
});

describe('tip selector inside the ask modal', () => {
  let restore: (() => void) | undefined;
  afterEach(() => restore?.());

  const recipient: PublicProfile = {
    _id: 'u1',
    id: 'u1',
    username: 'ada',
    name: 'Ada',
    bio: '',
    avatarUrl: '',
    brandColorMain: '#1A140F',
    brandColorLight: '#FAF6F2',
    archiveProfile: false,
  };

  const open = (tippingEnabled: boolean | 'error') => {
    restore = mockFetch({
      'GET /api/payments/tipOptions': () =>
        tippingEnabled === 'error'
          ? json({ message: 'boom' }, { status: 500 })
          : json({ tipOptions: DEFAULT_TIP_OPTIONS, tippingEnabled }),
    }).restore;
    render(
      <MemoryRouter initialEntries={['/ask/ada']}>
        <AuthProvider>
          <AskModal recipient={recipient} onClose={() => undefined} />
        </AuthProvider>
      </MemoryRouter>,
    );
  };

  it('is shown when the recipient has tipping enabled', async () => {
    open(true);
    expect(await screen.findByRole('group', { name: 'Tip amount' })).toBeInTheDocument();
  });

  it('is hidden when tippingEnabled is false', async () => {
    open(false);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Post Question' })).toBeEnabled());
    expect(screen.queryByRole('group', { name: 'Tip amount' })).not.toBeInTheDocument();
    // Only the asker's consent choice (issue 14) is left: no tip amount.
    expect(screen.queryByRole('radio', { name: /\$|No tip/ })).not.toBeInTheDocument();
  });

  it('is hidden when the tip options fail to load (tipping off, spec §4)', async () => {
    open('error');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Post Question' })).toBeEnabled());
    expect(screen.queryByRole('group', { name: 'Tip amount' })).not.toBeInTheDocument();
  });
});
