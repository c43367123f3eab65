import { expect } from 'vitest';
import { call, signup } from './identity-journey.js';

/*
 * Issue 15 (docs/adr/0029): an owner with seeded timings. Seven guest questions asked at T0 on a clock the test moves;
 * answered after 1 h, 3 h, 2 d, 3 d (hidden from the page), 4 d (the asker chose private) and 6 d (past the 5-day
 * window); one never answered. Plus a curated public Q&A. Expected, 6 days after T0:
 * - answered 6 → established; median of 1 h, 3 h, 2 d, 3 d, 4 d, 6 d = 2.5 days (216,000 s);
 * - within the window: 5 of the 7 decided (the unanswered one's window is over) → 71 %;
 * - public answers: 1 h, 2 h... the ones shown: 1 h, 3 h, 2 d, 6 d and the curated one → 5.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const SEEDED = {
  medianSeconds: 216_000,
  medianText: '2.5 days',
  windowShare: 5 / 7,
  windowText: '71%',
  publicAnswers: 5,
};

export interface SeededOwner {
  owner: Awaited<ReturnType<typeof signup>>;
  name: string;
  /** The public answers, newest first (what the feed lists). */
  publicIds: string[];
  /** The ones never public: hidden, private, unanswered. */
  hiddenId: string;
  privateId: string;
  unansweredId: string;
  questions: Record<string, string>;
}

export async function seedTimedOwner(
  base: string,
  clock: { advance(ms: number): void },
  name: string,
  email: string,
  texts: Partial<Record<'h1' | 'h3' | 'd2' | 'd6', string>> = {},
): Promise<SeededOwner> {
  const owner = await signup(base, name, email);
  const ask = async (question: string, opts: { private?: boolean } = {}) => {
    const res = await call(base, 'POST', '/api/questions', {
      question,
      detail: '',
      tip: 0,
      toUsername: owner.username,
      toUserId: owner.id,
      askedName: 'Gus Guest',
      askedEmail: `gus.${Math.random().toString(36).slice(2)}@example.com`,
      agreedToTerms: true,
      ...(opts.private ? { isPrivate: true } : {}),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body._id as string;
  };
  const q = {
    h1: await ask(texts.h1 ?? 'What did you learn in your first hour?'),
    h3: await ask(texts.h3 ?? 'Which tool do you use every day?'),
    d2: await ask(texts.d2 ?? 'How do you plan a week?'),
    d3: await ask('Hidden: what is your salary?'),
    d4: await ask('Private: can you look at my contract?', { private: true }),
    d6: await ask(texts.d6 ?? 'Late one: what book changed your mind?'),
    never: await ask('Never answered: will you reply?'),
  };
  const answer = async (id: string, text: string, extra: Record<string, unknown> = {}) => {
    const res = await call(base, 'PUT', `/api/questions/${id}/answer`, { answer: text, ...extra }, owner.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  clock.advance(1 * HOUR);
  await answer(q.h1, 'That answering fast matters.', { tags: ['work'] });
  clock.advance(2 * HOUR);
  await answer(q.h3, 'A plain text editor.');
  clock.advance(2 * DAY - 3 * HOUR);
  await answer(q.d2, 'On paper, on Sunday.');
  clock.advance(1 * DAY);
  await answer(q.d3, 'Not for the page.', { displayOnProfile: false });
  clock.advance(1 * DAY);
  await answer(q.d4, 'Only the asker reads this.');
  clock.advance(2 * DAY);
  await answer(q.d6, 'Thinking, Fast and Slow.');
  const curated = await call(
    base,
    'POST',
    '/api/questions',
    { isCurated: true, question: 'Curated: where did you study?', answer: 'In Leeds.', tags: [], displayOnProfile: true, tip: 0 },
    owner.token,
  );
  expect(curated.status).toBe(201);
  return {
    owner,
    name,
    publicIds: [curated.body._id as string, q.d6, q.d2, q.h3, q.h1],
    hiddenId: q.d3,
    privateId: q.d4,
    unansweredId: q.never,
    questions: q,
  };
}
