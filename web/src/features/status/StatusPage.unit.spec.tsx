import { act, render, screen, waitFor } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QuestionStatusPage } from '@ques/contracts/core';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { PageDataProvider, pageDataKeys, type PageData } from '../../lib/ssr';
import { json, mockFetch } from '../../test/fetch-mock';
import StatusPage from './StatusPage';

const TOKEN = 'a'.repeat(43);
/** The viewer's zone in these tests: India (UTC+5:30), so a UTC rendering cannot pass for a local one. */
const ZONE = 'Asia/Kolkata';
const NOW = new Date('2026-12-01T12:00:00.000Z');
const ASKED = '2026-12-01T11:59:00.000Z';
const RELEASE = '2026-12-06T11:59:00.000Z';
const held: QuestionStatusPage = {
  questionId: 'q1',
  question: 'Which loom?',
  detail: 'Jacquard or not',
  publicQuestion: null,
  publicDetail: null,
  toName: 'Mira Castell',
  toUsername: 'mira',
  toAvatarUrl: '/images/user-image.png',
  brandColorMain: '#0E7C66',
  brandColorLight: '#E6F4F0',
  status: 'Pending',
  askedAt: ASKED,
  answer: null,
  answeredAt: null,
  isPublic: false,
  answerPath: null,
  timeline: [
    { step: 'asked', at: ASKED },
    { step: 'held', at: ASKED },
  ],
  isPrivate: false,
  tip: { amountCents: 500, currency: 'usd', state: 'held', releaseAt: RELEASE, chargedAt: null },
  emailConfirmed: true,
};
const ANSWERED_AT = '2026-12-02T08:00:00.000Z';
const answered = (over: Partial<QuestionStatusPage> = {}): QuestionStatusPage => ({
  ...held,
  status: 'Answered',
  answer: 'The Jacquard one.',
  answeredAt: ANSWERED_AT,
  timeline: [...held.timeline, { step: 'answered', at: ANSWERED_AT }, { step: 'charged', at: ANSWERED_AT }],
  tip: { ...held.tip!, state: 'charged', chargedAt: ANSWERED_AT },
  ...over,
});

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  vi.useRealTimers();
});

function open(routes: Parameters<typeof mockFetch>[0], path = `/q/${TOKEN}`) {
  const mock = mockFetch(routes);
  restore = mock.restore;
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="q/:token" element={<StatusPage timeZone={ZONE} />} />
      </Routes>
    </MemoryRouter>,
  );
  return mock;
}
const confirmWith = (page: QuestionStatusPage) => ({ [`POST /api/question-status/${TOKEN}/confirm`]: () => json(page) });
const text = (testId: string) => screen.getByTestId(testId).textContent ?? '';

describe('the private status page as an order page (issues 14, 28)', () => {
  it("shows every time in the viewer's zone with the UTC time as its tooltip, and the countdown ticks every second", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(NOW);
    open(confirmWith(held));
    await screen.findByText('Which loom?');
    // 11:59 UTC is 17:29 in India: shown local, UTC in the title.
    const asked = screen.getByText('Tue 1 Dec, 17:29', { selector: '.status-page__asked time' });
    expect(asked).toHaveAttribute('title', 'Tue 1 Dec 2026, 11:59 UTC');
    expect(asked).toHaveAttribute('dateTime', ASKED);
    expect(text('countdown')).toMatch(/^Released automatically in 4 d 23 h 59 min \d\d s, on Sun 6 Dec, 17:29\.$/);
    const before = text('countdown-clock');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    const after = text('countdown-clock');
    expect(after).not.toBe(before);
    expect(after).toHaveLength(before.length); // padded: the same width every second
    // The timeline: what happened, each in local time, then what is still to come.
    const steps = [...screen.getByTestId('timeline').querySelectorAll('li')].map((li) => li.textContent);
    expect(steps).toEqual([
      'AskedTue 1 Dec, 17:29',
      '$5.00 held on your cardTue 1 Dec, 17:29',
      'Mira Castell answers (to come)',
      '$5.00 charged only then (to come)',
    ]);
    // In the owner's colours.
    expect(document.querySelector<HTMLElement>('.status-shell')!.style.getPropertyValue('--brand-main')).toBe('#0E7C66');
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex, nofollow');
  });

  it('says "may be published" only while pending; answered and public: published, with the public answer link; the answer above the charge', async () => {
    open(confirmWith({ ...answered(), isPublic: true, answerPath: '/ask/mira/question/q1/which-loom' }));
    await screen.findByText('The Jacquard one.');
    expect(text('consent')).toBe("Published on Mira Castell's page");
    expect(screen.queryByText(/May be published/)).toBeNull();
    expect(screen.getByRole('link', { name: 'See the public answer on Mira Castell’s page' })).toHaveAttribute(
      'href',
      '/ask/mira/question/q1/which-loom',
    );
    expect(text('tip')).toBe('Charged $5.00 on Wed 2 Dec, 13:30.');
    const answer = screen.getByText('The Jacquard one.');
    expect(answer.compareDocumentPosition(screen.getByTestId('tip')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect([...screen.getByTestId('timeline').querySelectorAll('li')].map((li) => li.dataset.step)).toEqual([
      'asked',
      'held',
      'answered',
      'charged',
    ]);
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();
  });

  it('answered but not public: no publishing line nor link; the asker still sees the answer', async () => {
    open(confirmWith(answered({ isPrivate: true, publicQuestion: 'Which loom, in general?', publicDetail: '' })));
    await screen.findByText('The Jacquard one.');
    expect(text('consent')).toBe('Private — only you see the answer');
    expect(screen.getByText('Only you can see this answer.')).toBeInTheDocument();
    expect(screen.getByTestId('redacted').textContent).toContain('Which loom, in general?');
    expect(screen.queryByRole('link', { name: /public answer/ })).toBeNull();
  });

  it('withdrawn or unanswered in time: settled, nothing about publishing, released on the timeline', async () => {
    for (const [status, step] of [
      ['Withdrawn', 'withdrawn'],
      ['Released', 'expired'],
    ] as const) {
      const at = '2026-12-03T10:00:00.000Z';
      open(
        confirmWith({
          ...held,
          status,
          timeline: [...held.timeline, { step, at }, { step: 'released', at }],
          tip: { ...held.tip!, state: 'released' },
        }),
      );
      await screen.findByText('Which loom?');
      expect(screen.queryByText(/published/i)).toBeNull();
      expect(screen.queryByTestId('consent')).toBeNull();
      expect(text('tip')).toBe('Released — never charged.');
      expect(screen.getByTestId('timeline').textContent).toContain('Hold released — never charged');
      expect(screen.queryByTestId('countdown')).toBeNull();
      restore?.();
      document.body.innerHTML = '';
    }
  });

  it('withdraws after a confirm step and shows it released', async () => {
    const mock = open({
      ...confirmWith(held),
      [`POST /api/question-status/${TOKEN}/withdraw`]: () =>
        json({ ...held, status: 'Withdrawn', tip: { ...held.tip!, state: 'released' } }),
    });
    await screen.findByText('Which loom?');
    expect(text('consent')).toBe("May be published on Mira Castell's page");
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(mock.calls.some((c) => c.url.endsWith('/withdraw'))).toBe(false); // a confirm step first
    await user.click(screen.getByRole('button', { name: 'Yes, withdraw' }));
    await waitFor(() => expect(text('status')).toBe('Withdrawn'));
    expect(text('tip')).toBe('Released — never charged.');
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();
  });

  it('confirms a tipped question: "Confirming your payment…" until the hold is recorded, then the split, the local release date and the link', async () => {
    let reads = 0;
    open(
      {
        ...confirmWith({ ...held, status: 'Confirming', timeline: [{ step: 'asked', at: ASKED }], tip: { ...held.tip!, releaseAt: null } }),
        [`GET /api/question-status/${TOKEN}`]: () => {
          reads += 1;
          return json(reads < 2 ? { ...held, status: 'Confirming', tip: { ...held.tip!, releaseAt: null } } : held);
        },
      },
      `/q/${TOKEN}?confirmed=1`,
    );
    expect(await screen.findByRole('heading', { name: 'Your question was sent to Mira Castell.' })).toBeInTheDocument();
    expect(text('money')).toBe('$5.00 held · $4.50 to Mira Castell · $0.50 Ques fee');
    expect(text('release')).toBe('Confirming your payment…');
    // Nothing of the order below until the hold is recorded (then it appears below, moving nothing).
    expect(screen.queryByTestId('status')).toBeNull();
    expect(screen.queryByTestId('timeline')).toBeNull();
    await waitFor(() => expect(text('status')).toBe('Pending'), { timeout: 4000 });
    expect(text('release')).toBe(
      'If Mira Castell hasn’t answered by Sun 6 Dec, 17:29, the hold is released — you’re never charged.',
    );
    expect(screen.getByLabelText('Keep this link to follow your question:')).toHaveValue(`${window.location.origin}/q/${TOKEN}`);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/q/${TOKEN}`);
    expect(await screen.findByText('Link copied.')).toBeInTheDocument();
  });

  it('confirms a free question without any money line', async () => {
    open(confirmWith({ ...held, tip: null, timeline: [{ step: 'asked', at: ASKED }] }), `/q/${TOKEN}?confirmed=1`);
    expect(await screen.findByRole('heading', { name: 'Your question was sent to Mira Castell.' })).toBeInTheDocument();
    expect(screen.queryByTestId('money')).toBeNull();
    expect(screen.queryByTestId('release')).toBeNull();
    expect(screen.queryByTestId('tip')).toBeNull();
    expect(screen.getByTestId('confirmation').textContent).not.toMatch(/\$|charged|held/);
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
  });

  it('says the page does not exist for an unknown token', async () => {
    open({
      [`POST /api/question-status/${TOKEN}/confirm`]: () =>
        json({ message: 'This status page does not exist. Check the link in your e-mail.' }, { status: 404 }),
    });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('shows a second withdrawal’s message and keeps the page', async () => {
    open({
      ...confirmWith(held),
      [`POST /api/question-status/${TOKEN}/withdraw`]: () =>
        json({ message: 'This question was already withdrawn.' }, { status: 409 }),
    });
    await screen.findByText('Which loom?');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    await user.click(screen.getByRole('button', { name: 'Yes, withdraw' }));
    expect(await screen.findByText('This question was already withdrawn.')).toBeInTheDocument();
    expect(screen.getByText('Which loom?')).toBeInTheDocument();
  });
});

describe('server-rendered (ADR 0058)', () => {
  /** The confirmation page as the server renders it from `values` (the BFF's page data), and the tree to hydrate. */
  function serverRendered(values: PageData['values']) {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
    vi.setSystemTime(NOW);
    const data: PageData = { path: `/q/${TOKEN}`, values };
    const tree = () => (
      <MemoryRouter initialEntries={[`/q/${TOKEN}?confirmed=1`]}>
        <PageDataProvider holder={{ current: data }}>
          <Routes>
            <Route path="q/:token" element={<StatusPage timeZone={ZONE} />} />
          </Routes>
        </PageDataProvider>
      </MemoryRouter>
    );
    const served = renderToString(tree());
    return { tree, served, html: served.replaceAll('<!-- -->', '') };
  }

  /** Hydrates `served` in a document with the page's calls mocked; `then` runs on the hydrated page, problems collected. */
  async function hydrated(
    { tree, served }: ReturnType<typeof serverRendered>,
    then: (page: { container: HTMLElement; problems: unknown[]; mock: ReturnType<typeof mockFetch> }) => Promise<void>,
  ) {
    const mock = mockFetch(confirmWith(held));
    restore = mock.restore;
    const container = document.createElement('div');
    container.innerHTML = served;
    document.body.appendChild(container);
    const problems: unknown[] = [];
    const consoleError = vi.spyOn(console, 'error').mockImplementation((...args) => void problems.push(args));
    try {
      await act(async () => {
        hydrateRoot(container, tree(), { onRecoverableError: (error) => void problems.push(error) });
      });
      await then({ container, problems, mock });
    } finally {
      consoleError.mockRestore();
      container.remove();
    }
  }

  it('renders complete with UTC times from the page data, hydrates without a mismatch or a fetch of the page, then shows the viewer\'s zone and confirms the link', async () => {
    const page = serverRendered({ [pageDataKeys.status(TOKEN)]: { data: held } });
    const { html } = page;
    // Complete without JavaScript: the amount, the state, the timeline; 11:59 UTC as the server writes it.
    expect(html).toContain('$5.00 held · $4.50 to Mira Castell · $0.50 Ques fee');
    expect(html).toContain('data-testid="status">Pending</strong>');
    expect(html).toContain('If Mira Castell hasn’t answered by <time');
    expect(html).toContain('>Sun 6 Dec, 11:59</time>');
    expect(html).not.toContain('17:29');
    // Every time's box is sized by every zone's way of writing it (the same on both sides: nothing moves).
    expect(html).toContain('data-zones="Sat 5 Dec, 23:59\nSun 6 Dec, 11:59\nMon 7 Dec, 01:59"');

    await hydrated(page, async ({ container, problems, mock }) => {
      await waitFor(() => expect(container.querySelector('[data-testid="release"] time')?.textContent).toBe('Sun 6 Dec, 17:29'));
      expect(problems).toEqual([]);
      // The page came with the document: the only call is opening the link (it confirms a guest's mailed link).
      await waitFor(() => expect(mock.calls.map((c) => `${c.method} ${new URL(c.url, 'http://x').pathname}`)).toEqual([`POST /api/question-status/${TOKEN}/confirm`]));
    });
  });

  it('renders in the zone of the viewer\'s ques_tz cookie when the server had it: the right time from the first paint, no box reserved, the same after hydration', async () => {
    const page = serverRendered({ [pageDataKeys.status(TOKEN)]: { data: held }, [pageDataKeys.zone()]: { data: ZONE } });
    const { html } = page;
    expect(html).toContain('>Sun 6 Dec, 17:29</time>');
    expect(html).not.toContain('>Sun 6 Dec, 11:59</time>');
    expect(html).not.toContain('data-zones');

    await hydrated(page, async ({ container, problems }) => {
      expect(container.querySelector('[data-testid="release"] time')?.textContent).toBe('Sun 6 Dec, 17:29');
      expect(problems).toEqual([]);
    });
  });
});
