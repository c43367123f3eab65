import { afterEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../test/fetch-mock';
import { createCurated, editAnswer, postAnswer, type CuratePayload } from './api';

describe('answer and curate submits: one Idempotency-Key, one retry (issue 12)', () => {
  let mock: ReturnType<typeof mockFetch>;
  afterEach(() => mock.restore());

  it('answers with a key and retries a 500 once with the same key', async () => {
    let attempts = 0;
    mock = mockFetch({ 'PUT /api/questions/q1/answer': () => (++attempts === 1 ? json({ message: 'oops' }, { status: 500 }) : json({ _id: 'q1' })) });
    await expect(postAnswer('q1', { answer: 'Yes', displayOnProfile: true, replierName: 'Ada', tags: [] })).resolves.toEqual({ _id: 'q1' });
    const keys = mock.calls.map((c) => c.headers['Idempotency-Key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toEqual(expect.any(String));
    expect(keys[1]).toBe(keys[0]);
  });

  it('sends a key with an answer edit and a curated Q&A', async () => {
    mock = mockFetch({ 'PUT /api/questions/q1/answer': () => json({}), 'POST /api/questions': () => json({}, { status: 201 }) });
    await editAnswer('q1', 'Edited', []);
    await createCurated({ question: 'Q', answer: 'A' } as CuratePayload);
    for (const call of mock.calls) expect(call.headers['Idempotency-Key'], call.url).toEqual(expect.any(String));
  });
});
