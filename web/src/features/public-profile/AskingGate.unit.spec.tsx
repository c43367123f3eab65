import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../test/fetch-mock';
import { AskingGate } from './AskingGate';

let restore: (() => void) | undefined;
afterEach(() => restore?.());

const gate = () =>
  render(
    <AskingGate username="ada" name="Ada Lovelace">
      <button type="button">Ask Ada Lovelace a Question</button>
    </AskingGate>,
  );

describe('the public page while the owner is paused or at the cap (issue 16)', () => {
  it('says "Not taking questions until {date}" with the note, in place of the ask button', async () => {
    restore = mockFetch({
      'GET /api/asking/status/ada': () =>
        json({ accepting: false, reason: 'paused', pausedUntil: '2030-05-04T00:00:00.000Z', note: 'Back soon.' }),
    }).restore;
    gate();
    expect(await screen.findByText('Not taking questions until May 4, 2030.')).toBeInTheDocument();
    expect(screen.getByText(/Back soon\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Ask Ada/ })).not.toBeInTheDocument();
  });

  it('says so at the cap', async () => {
    restore = mockFetch({
      'GET /api/asking/status/ada': () => json({ accepting: false, reason: 'cap', pausedUntil: null, note: '' }),
    }).restore;
    gate();
    expect(await screen.findByText('Ada Lovelace is not taking new questions right now.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Ask Ada/ })).not.toBeInTheDocument();
  });

  it('keeps the ask button when the owner takes questions, or when the status cannot be read', async () => {
    const mock = mockFetch({
      'GET /api/asking/status/ada': () => json({ accepting: true, reason: null, pausedUntil: null, note: '' }),
    });
    restore = mock.restore;
    gate();
    expect(screen.getByRole('button', { name: 'Ask Ada Lovelace a Question' })).toBeInTheDocument();
    await screen.findByRole('button', { name: 'Ask Ada Lovelace a Question' });
    expect(mock.calls.map((c) => c.url)).toEqual(['/api/asking/status/ada']);
  });
});
