import { afterEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../test/fetch-mock';
import { sendSupportRequest } from './api';

describe('support send: one Idempotency-Key, one retry (issue 12)', () => {
  let mock: ReturnType<typeof mockFetch>;
  afterEach(() => mock.restore());

  it('retries a network error once with the same key', async () => {
    let attempts = 0;
    mock = mockFetch({
      'POST /api/support/send': () => {
        attempts += 1;
        if (attempts === 1) throw new TypeError('Failed to fetch');
        return json({ success: true });
      },
    });
    await expect(sendSupportRequest({ category: 'Other', title: 't', description: 'd' })).resolves.toEqual({ success: true });
    const keys = mock.calls.map((c) => c.headers['Idempotency-Key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toEqual(expect.any(String));
    expect(keys[1]).toBe(keys[0]);
  });
});
