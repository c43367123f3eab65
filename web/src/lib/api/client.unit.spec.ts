import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, SESSION_EXPIRED_MESSAGE, type ApiClientDeps } from './client';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

const res = (status: number, body?: unknown, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

function setup(fetchImpl: (url: string, init: RequestInit) => Response, stored: Record<string, string>) {
  const storage = memoryStorage(stored);
  const calls: Array<{ url: string; auth: string | undefined; body: unknown }> = [];
  const deps: ApiClientDeps = {
    fetch: vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const headers = (init.headers ?? {}) as Record<string, string>;
      calls.push({ url, auth: headers.Authorization, body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body });
      return fetchImpl(url, init);
    }),
    storage,
    redirectToLogin: vi.fn(),
    onTokenRefreshed: vi.fn(),
  };
  return { client: createApiClient(deps), deps, storage, calls };
}

describe('api client (spec §4 401 handling)', () => {
  it('sends the stored access token as a bearer token', async () => {
    const { client, calls } = setup(() => res(200, { ok: true }), { accessToken: 'A1' });
    await expect(client.json('/api/users/profile')).resolves.toEqual({ ok: true });
    expect(calls[0]?.auth).toBe('Bearer A1');
  });

  it('refreshes once on 401, stores the new tokens and retries with the new access token', async () => {
    const { client, calls, storage, deps } = setup(
      (url, init) => {
        if (url === '/api/users/refresh-token') return res(200, { accessToken: 'A2', refreshToken: 'R2' });
        const auth = (init.headers as Record<string, string>).Authorization;
        return auth === 'Bearer A2' ? res(200, { name: 'Ada' }) : res(401, { message: 'expired' });
      },
      { accessToken: 'A1', refreshToken: 'R1' },
    );
    await expect(client.json('/api/users/profile')).resolves.toEqual({ name: 'Ada' });
    expect(calls.map((c) => c.url)).toEqual(['/api/users/profile', '/api/users/refresh-token', '/api/users/profile']);
    expect(calls[1]?.body).toEqual({ refreshToken: 'R1' });
    expect(storage.data.get('accessToken')).toBe('A2');
    expect(storage.data.get('refreshToken')).toBe('R2');
    expect(deps.onTokenRefreshed).toHaveBeenCalledTimes(1);
    expect(deps.redirectToLogin).not.toHaveBeenCalled();
  });

  it('retries only once: a second 401 goes back to the caller', async () => {
    const { client, calls } = setup(
      (url) => (url === '/api/users/refresh-token' ? res(200, { accessToken: 'A2' }) : res(401, { message: 'nope' })),
      { accessToken: 'A1', refreshToken: 'R1' },
    );
    await expect(client.json('/api/questions')).rejects.toMatchObject({ status: 401, serverMessage: 'nope' });
    expect(calls).toHaveLength(3);
  });

  it('when the refresh fails, removes both tokens and sends the user to /login', async () => {
    const { client, storage, deps } = setup(
      (url) => (url === '/api/users/refresh-token' ? res(401, { message: 'revoked' }) : res(401)),
      { accessToken: 'A1', refreshToken: 'R1', userData: '{}' },
    );
    const err = await client.json('/api/questions').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe(SESSION_EXPIRED_MESSAGE);
    expect(storage.data.has('accessToken')).toBe(false);
    expect(storage.data.has('refreshToken')).toBe(false);
    expect(deps.redirectToLogin).toHaveBeenCalledTimes(1);
  });

  it('shares one refresh between concurrent 401s', async () => {
    let refreshes = 0;
    const { client } = setup(
      (url, init) => {
        if (url === '/api/users/refresh-token') {
          refreshes++;
          return res(200, { accessToken: 'A2', refreshToken: 'R2' });
        }
        const auth = (init.headers as Record<string, string>).Authorization;
        return auth === 'Bearer A2' ? res(200, {}) : res(401);
      },
      { accessToken: 'A1', refreshToken: 'R1' },
    );
    await Promise.all([client.json('/a'), client.json('/b'), client.json('/c')]);
    expect(refreshes).toBe(1);
  });

  it('passes a visitor without any session the 401 as it is', async () => {
    const { client, calls, deps } = setup(() => res(401, { message: 'Login required' }), {});
    await expect(client.json('/api/x')).rejects.toMatchObject({ status: 401, serverMessage: 'Login required' });
    expect(calls).toHaveLength(1);
    expect(deps.redirectToLogin).not.toHaveBeenCalled();
  });

  it('never refreshes for anonymous calls (login)', async () => {
    const { client, calls } = setup(() => res(401, { message: 'Invalid email or password' }), {
      accessToken: 'A1',
      refreshToken: 'R1',
    });
    await expect(client.json('/api/users/login', { method: 'POST', body: {}, anonymous: true })).rejects.toMatchObject({
      serverMessage: 'Invalid email or password',
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.auth).toBeUndefined();
  });

  it('exposes response headers through request()', async () => {
    const { client } = setup(() => res(200, [], { 'x-next-cursor': 'abc' }), {});
    const response = await client.request('/api/questions', { query: { username: 'ada', role: 'receiver', cursor: null } });
    expect(response.headers.get('x-next-cursor')).toBe('abc');
  });
});

describe('api client: one Idempotency-Key per submit, one retry (issue 12)', () => {
  const keyOf = (init: RequestInit) => (init.headers as Record<string, string>)['Idempotency-Key'];

  function recording(answers: Array<Response | Error>) {
    const seen: Array<{ url: string; key: string | undefined; body: unknown }> = [];
    const deps: ApiClientDeps = {
      fetch: vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        seen.push({ url: input as string, key: keyOf(init), body: init.body });
        const next = answers.shift() ?? res(200, {});
        if (next instanceof Error) throw next;
        return next;
      }),
      storage: memoryStorage({ accessToken: 'A1' }),
      redirectToLogin: vi.fn(),
      onTokenRefreshed: vi.fn(),
    };
    return { client: createApiClient(deps), seen };
  }

  it('sends a UUID key with an idempotent submit and retries once with the same key after a 5xx', async () => {
    const { client, seen } = recording([res(503, { message: 'down' }), res(201, { _id: 'q1' })]);
    await expect(client.json('/api/questions', { method: 'POST', body: { question: 'Hi?' }, idempotent: true })).resolves.toEqual({ _id: 'q1' });
    expect(seen).toHaveLength(2);
    expect(seen[0]!.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(seen[1]!.key).toBe(seen[0]!.key);
    expect(seen[1]!.body).toBe(seen[0]!.body);
  });

  it('retries once with the same key after a network error', async () => {
    const { client, seen } = recording([new TypeError('Failed to fetch'), res(200, { success: true })]);
    await expect(client.json('/api/support/send', { method: 'POST', body: {}, idempotent: true })).resolves.toEqual({ success: true });
    expect(seen.map((s) => s.key)).toEqual([seen[0]!.key, seen[0]!.key]);
    expect(seen[0]!.key).toEqual(expect.any(String));
  });

  it('retries only once: a second 5xx goes back to the caller', async () => {
    const { client, seen } = recording([res(500, { message: 'a' }), res(502, { message: 'Still broken' }), res(200, {})]);
    await expect(client.json('/api/questions', { method: 'POST', body: {}, idempotent: true })).rejects.toMatchObject({ status: 502, serverMessage: 'Still broken' });
    expect(seen).toHaveLength(2);
  });

  it('never retries a 4xx, and makes a new key for the next submit', async () => {
    const { client, seen } = recording([res(400, { message: 'Question title is required' }), res(201, {})]);
    await expect(client.json('/api/questions', { method: 'POST', body: {}, idempotent: true })).rejects.toMatchObject({ status: 400 });
    await client.json('/api/questions', { method: 'POST', body: {}, idempotent: true });
    expect(seen).toHaveLength(2);
    expect(seen[1]!.key).not.toBe(seen[0]!.key);
  });

  it('sends no key and never retries a call that is not idempotent', async () => {
    const { client, seen } = recording([res(503, { message: 'down' })]);
    await expect(client.json('/api/questions/q1', { method: 'PATCH', body: {} })).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.key).toBeUndefined();
  });

  it('keeps the key across a token refresh', async () => {
    const storage = memoryStorage({ accessToken: 'A1', refreshToken: 'R1' });
    const keys: Array<string | undefined> = [];
    const client = createApiClient({
      fetch: vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        if ((input as string) === '/api/users/refresh-token') return res(200, { accessToken: 'A2', refreshToken: 'R2' });
        keys.push(keyOf(init));
        return (init.headers as Record<string, string>).Authorization === 'Bearer A2' ? res(200, {}) : res(401);
      }),
      storage,
      redirectToLogin: vi.fn(),
      onTokenRefreshed: vi.fn(),
    });
    await client.json('/api/questions/q1/answer', { method: 'PUT', body: { answer: 'Yes' }, idempotent: true, idempotencyKey: 'submit-1' });
    expect(keys).toEqual(['submit-1', 'submit-1']);
  });
});
