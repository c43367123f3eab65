import { afterEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../test/fetch-mock';
import { createCheckoutSession, postQuestion, type QuestionPayload } from './api';

const payload = { question: 'Why?', detail: '', tip: 0, toUserId: 'u1' } as unknown as QuestionPayload;

describe('ask and checkout submits: one Idempotency-Key, one retry (issue 12)', () => {
  let mock: ReturnType<typeof mockFetch>;
  afterEach(() => mock.restore());

  it('asks with a key and retries a 5xx once with the same key', async () => {
    let attempts = 0;
    mock = mockFetch({ 'POST /api/questions': () => (++attempts === 1 ? json({ message: 'down' }, { status: 503 }) : json({ _id: 'q1' }, { status: 201 })) });
    await expect(postQuestion(payload)).resolves.toEqual({ _id: 'q1' });
    const keys = mock.calls.map((c) => c.headers['Idempotency-Key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toEqual(expect.any(String));
    expect(keys[1]).toBe(keys[0]);
  });

  it('checks out with a key, a new one per submit', async () => {
    mock = mockFetch({ 'POST /api/checkout/create-checkout-session': () => json({ sessionId: 's', url: '/pay' }) });
    await createCheckoutSession(5, 'guest', payload);
    await createCheckoutSession(5, 'guest', payload);
    const [first, second] = mock.calls.map((c) => c.headers['Idempotency-Key']);
    expect(first).toEqual(expect.any(String));
    expect(second).toEqual(expect.any(String));
    expect(second).not.toBe(first);
  });
});
