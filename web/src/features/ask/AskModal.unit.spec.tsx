import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ASK_MESSAGES, DEFAULT_TIP_OPTIONS, type PublicProfile } from '@ques/contracts/core';
import { json, mockFetch } from '../../test/fetch-mock';
import { errorOf } from '../../test/field-error';
import { AuthProvider } from '../../lib/auth/auth-context';
import { MemoryRouter, useLocation } from 'react-router-dom';
import AskModal from './AskModal';
import { askFieldErrors, recipientProblem, type AskDraft } from './validate';

vi.mock('../../lib/browser', () => ({ leaveTo: vi.fn() }));
const { leaveTo } = await import('../../lib/browser');

const recipient: PublicProfile = {
  _id: 'u-owner',
  id: 'u-owner',
  username: 'ada',
  name: 'Ada Lovelace',
  bio: '',
  avatarUrl: '/images/user-image.png',
  brandColorMain: '#1A140F',
  brandColorLight: '#FAF6F2',
  archiveProfile: false,
};

let restoreFetch: (() => void) | undefined;
afterEach(() => restoreFetch?.());

function setup(options: { tippingEnabled?: boolean; recipient?: PublicProfile & { email?: string }; signedIn?: boolean } = {}) {
  const mock = mockFetch({
    'GET /api/payments/tipOptions': () =>
      json({ tipOptions: DEFAULT_TIP_OPTIONS, tippingEnabled: options.tippingEnabled ?? true }),
    'GET /api/users/profile': () =>
      json({
        _id: 'u-me',
        id: 'u-me',
        username: 'grace',
        name: 'Grace Hopper',
        email: 'grace@example.com',
        avatarUrl: '/images/user-image.png',
      }),
    'POST /api/questions': (call) => json({ _id: 'q1', ...(call.body as object) }, { status: 201 }),
    'GET /api/asking/similar/ada': () =>
      json([{ id: 'a1', question: 'How do I price a workshop?', answer: 'Per day.', toUsername: 'ada', answeredAt: null }]),
    'POST /api/checkout/create-checkout-session': () =>
      json({ sessionId: 'cs_1', paymentIntentId: 'pi_1', url: 'https://checkout.example/cs_1' }),
  });
  restoreFetch = mock.restore;
  if (options.signedIn) {
    window.localStorage.setItem('accessToken', 'token-1');
    window.localStorage.setItem('userData', JSON.stringify({ _id: 'u-me', username: 'grace', name: 'Grace Hopper' }));
  }
  const onPosted = vi.fn();
  const onClose = vi.fn();
  const user = userEvent.setup();
  render(
    <MemoryRouter initialEntries={['/ask/ada']}>
      <AuthProvider>
        <AskModal recipient={options.recipient ?? recipient} onClose={onClose} onPosted={onPosted} />
        <Where />
      </AuthProvider>
    </MemoryRouter>,
  );
  const post = () => user.click(screen.getByRole('button', { name: 'Post Question' }));
  const alertText = () => screen.getByRole('alert').textContent;
  return { user, mock, onPosted, onClose, post, alertText };
}

/** Where the app is (the confirmation page after posting, issue 28). */
function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{pathname + search}</output>;
}

/** Waits until the tip options have loaded (the submit button is disabled until then). */
const ready = () => waitFor(() => expect(screen.getByRole('button', { name: 'Post Question' })).toBeEnabled());

describe('ask modal — per-field errors (spec §5 rules, issue 28)', () => {
  it('shows every error at once, each under its field, and clears one as soon as its field is valid', async () => {
    const { user, post, mock } = setup({ tippingEnabled: true });
    await ready();
    await post();

    const title = screen.getByLabelText(/Question title/);
    const name = screen.getByLabelText('Your Name');
    const email = screen.getByLabelText('Email');
    const agree = screen.getByRole('checkbox');
    const tip = screen.getByRole('group', { name: /tip/i });
    for (const control of [title, name, email, agree, tip]) expect(control).toHaveAttribute('aria-invalid', 'true');
    expect(errorOf(title)).toBe(ASK_MESSAGES.titleRequired);
    expect(errorOf(name)).toBe('Name is required');
    expect(errorOf(email)).toBe('Email is required');
    expect(errorOf(agree)).toBe(ASK_MESSAGES.mustAgree);
    expect(errorOf(tip)).toBe(ASK_MESSAGES.selectTip);
    // The summary only counts them, politely; the first invalid field has the focus.
    expect(screen.getByText('Please correct the 5 highlighted fields.').closest('[role="status"]')).toHaveAttribute('aria-live', 'polite');
    expect(title).toHaveFocus();

    // One character makes the title valid: its error goes at once, without another submit; the others stay.
    await user.type(title, 'H');
    expect(title).not.toHaveAttribute('aria-invalid');
    expect(errorOf(title)).toBeNull();
    expect(screen.queryByText(ASK_MESSAGES.titleRequired)).toBeNull();
    expect(errorOf(name)).toBe('Name is required');
    expect(screen.getByText('Please correct the 4 highlighted fields.')).toBeInTheDocument();

    await user.click(agree);
    expect(errorOf(agree)).toBeNull();
    // Emptied again, the title's error is back.
    await user.clear(title);
    expect(errorOf(title)).toBe(ASK_MESSAGES.titleRequired);

    await user.type(screen.getByLabelText('Custom amount ($)'), '0.5');
    expect(errorOf(tip)).toBe(ASK_MESSAGES.penny);
    await user.clear(screen.getByLabelText('Custom amount ($)'));
    await user.type(screen.getByLabelText('Custom amount ($)'), '5');
    expect(errorOf(tip)).toBeNull();

    // Nothing was posted while any rule failed.
    expect(mock.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  }, 20_000); // many typed fields: slow on a loaded machine

  it('rule 4: a recipient without an id', async () => {
    const { user, post, alertText } = setup({ recipient: { ...recipient, id: '', _id: '' } });
    await ready();
    await user.type(screen.getByLabelText(/Question title/), 'Hello?');
    await user.click(screen.getByRole('checkbox'));
    await user.type(screen.getByLabelText('Your Name'), 'G');
    await user.type(screen.getByLabelText('Email'), 'g@example.com');
    await post();
    expect(alertText()).toBe('Recipient user data is missing. Please try again later.');
  });

  it('rule 5: a recipient whose e-mail is known to be empty', async () => {
    const { user, post, alertText } = setup({ recipient: { ...recipient, email: '' } });
    await ready();
    await user.type(screen.getByLabelText(/Question title/), 'Hello?');
    await user.click(screen.getByRole('checkbox'));
    await user.type(screen.getByLabelText('Your Name'), 'G');
    await user.type(screen.getByLabelText('Email'), 'g@example.com');
    await user.click(screen.getByRole('radio', { name: 'No tip' }));
    await post();
    expect(alertText()).toBe('Recipient email is missing');
  });

  it('askFieldErrors: one message per invalid field; recipientProblem: rules 4–5', () => {
    const draft: AskDraft = {
      title: ' ',
      isGuest: true,
      agreed: false,
      name: '',
      email: 'e@x.io',
      tippingEnabled: true,
      preset: null,
      custom: '0.99',
    };
    expect(askFieldErrors(draft)).toEqual({
      title: ASK_MESSAGES.titleRequired,
      name: 'Name is required',
      email: undefined,
      tip: ASK_MESSAGES.penny,
      agree: ASK_MESSAGES.mustAgree,
    });
    // A signed-in asker has no contact fields or agreement; no preset and no custom amount is rule 6.
    expect(askFieldErrors({ ...draft, title: 'Q', isGuest: false, custom: '' })).toEqual({
      title: undefined,
      name: undefined,
      email: undefined,
      tip: ASK_MESSAGES.selectTip,
      agree: undefined,
    });
    // The tip rules are skipped only when tipping is explicitly off.
    expect(askFieldErrors({ ...draft, isGuest: false, title: 'Q', custom: '', tippingEnabled: false }).tip).toBeUndefined();
    expect(askFieldErrors({ ...draft, isGuest: false, title: 'Q', custom: '', tippingEnabled: undefined }).tip).toBe(ASK_MESSAGES.selectTip);
    expect(recipientProblem({ email: 'o@x.io' })).toBe(ASK_MESSAGES.recipientMissing);
    expect(recipientProblem({ id: 'u1', email: '' })).toBe(ASK_MESSAGES.recipientEmailMissing);
    expect(recipientProblem({ id: 'u1' })).toBeNull();
  });
});

describe('ask modal — posting', () => {
  it('posts a free question directly, then calls onPosted', async () => {
    const { user, post, mock, onPosted } = setup({ tippingEnabled: true });
    await ready();
    await user.type(screen.getByLabelText(/Question title/), 'Do you mentor juniors?');
    await user.type(screen.getByLabelText(/Description/), 'Remote, part-time.');
    await user.type(screen.getByLabelText('Your Name'), 'Guest Person');
    await user.type(screen.getByLabelText('Email'), 'guest@example.com');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('radio', { name: 'No tip' }));
    await post();

    await waitFor(() => expect(onPosted).toHaveBeenCalledTimes(1));
    const posted = mock.calls.find((c) => c.method === 'POST' && c.url.startsWith('/api/questions'));
    expect(posted?.body).toMatchObject({
      question: 'Do you mentor juniors?',
      detail: 'Remote, part-time.',
      tip: 0,
      isCurated: false,
      toUsername: 'ada',
      recipientName: 'Ada Lovelace',
      toUserId: 'u-owner',
      fromUsername: 'guest',
      askedName: 'Guest Person',
      askedEmail: 'guest@example.com',
      yourName: 'Guest Person',
      yourEmail: 'guest@example.com',
      // The questions service refuses a guest's question without it.
      agreedToTerms: true,
    });
    expect(mock.calls.some((c) => c.url.includes('checkout'))).toBe(false);
    // Issue 28: the link the browser made goes with the question, and the confirmation page is its page.
    const { statusToken } = posted?.body as { statusToken: string };
    expect(statusToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(`/q/${statusToken}?confirmed=1`));
  });

  it('sends a tipped question to checkout and leaves for the hosted page', async () => {
    const { user, post, mock } = setup({ tippingEnabled: true });
    await ready();
    await user.type(screen.getByLabelText(/Question title/), 'Review my deck?');
    await user.type(screen.getByLabelText('Your Name'), 'Guest Person');
    await user.type(screen.getByLabelText('Email'), 'guest@example.com');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('radio', { name: '$25' }));
    await post();

    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('https://checkout.example/cs_1'));
    const checkout = mock.calls.find((c) => c.url === '/api/checkout/create-checkout-session');
    expect(checkout?.body).toMatchObject({
      donationAmount: 25,
      userId: 'guest',
      questionData: { question: 'Review my deck?', tip: 25 },
    });
    // Issue 28: the checkout carries the status link the browser made (payments returns there once paid).
    expect((checkout?.body as { questionData: { statusToken: string } }).questionData.statusToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mock.calls.some((c) => c.method === 'POST' && c.url === '/api/questions')).toBe(false);
  });

  it('shows the fee breakdown under the tip before paying, and carries the private choice to checkout (issue 14)', async () => {
    const { user, post, mock } = setup({ tippingEnabled: true });
    await ready();
    expect(screen.queryByTestId('fee-breakdown')).toBeNull();
    // Published by default; the asker may choose private.
    expect(screen.getByRole('radio', { name: "May be published on Ada Lovelace's page" })).toBeChecked();
    await user.type(screen.getByLabelText(/Question title/), 'Review my deck?');
    await user.type(screen.getByLabelText('Your Name'), 'Guest Person');
    await user.type(screen.getByLabelText('Email'), 'guest@example.com');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('radio', { name: '$25' }));
    expect(screen.getByTestId('fee-breakdown').textContent).toBe(
      'Ada Lovelace receives $22.50 · Ques fee (10 %) $2.50 · Your card is held, not charged, until Ada Lovelace ' +
        'answers; released automatically after 5 days. One-time tip, never recurring.',
    );
    await user.click(screen.getByRole('radio', { name: 'Private — only I see the answer' }));
    await post();
    await waitFor(() => expect(leaveTo).toHaveBeenCalled());
    const checkout = mock.calls.find((c) => c.url === '/api/checkout/create-checkout-session');
    expect(checkout?.body).toMatchObject({ questionData: { isPrivate: true } });
  });

  it('shows the owner\'s matching public answers as the title is typed, each opening in place (issue 14)', async () => {
    const { user, mock } = setup({ tippingEnabled: true });
    await ready();
    await user.type(screen.getByLabelText(/Question title/), 'workshop pricing');
    const box = await screen.findByTestId('similar-answers', {}, { timeout: 3000 });
    await user.click(within(box).getByRole('button', { name: 'How do I price a workshop?' }));
    expect(within(box).getByText('Per day.')).toBeInTheDocument();
    const calls = mock.calls.filter((c) => c.url.startsWith('/api/asking/similar/ada'));
    // Debounced: not one request per keystroke.
    expect(calls.length).toBeLessThan(4);
    expect(calls.at(-1)?.url).toContain('q=workshop+pricing');
  });

  it('asks a signed-in user for neither name, e-mail nor agreement, and sends their identity', async () => {
    const { user, post, mock, onPosted } = setup({ tippingEnabled: false, signedIn: true });
    await ready();
    expect(screen.queryByLabelText('Your Name')).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText(/Question title/), 'Which book first?');
    await post();
    await waitFor(() => expect(onPosted).toHaveBeenCalled());
    const posted = mock.calls.find((c) => c.method === 'POST' && c.url === '/api/questions');
    expect(posted?.body).toMatchObject({ fromUsername: 'grace', askedEmail: 'grace@example.com', tip: 0 });
    expect(posted?.headers.Authorization).toBe('Bearer token-1');
  });

  it('shows the server message when posting fails', async () => {
    const { user, post, mock, alertText } = setup({ tippingEnabled: false });
    mock.fn.mockImplementation(async (input: RequestInfo | URL) =>
      (typeof input === 'string' ? input : '').startsWith('/api/payments')
        ? json({ tipOptions: DEFAULT_TIP_OPTIONS, tippingEnabled: false })
        : json({ message: 'Slow down' }, { status: 429 }),
    );
    await ready();
    await user.type(screen.getByLabelText(/Question title/), 'Q?');
    await user.type(screen.getByLabelText('Your Name'), 'G');
    await user.type(screen.getByLabelText('Email'), 'g@example.com');
    await user.click(screen.getByRole('checkbox'));
    await post();
    await waitFor(() => expect(alertText()).toBe('Slow down'));
  });
});
