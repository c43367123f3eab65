import { vi } from 'vitest';

export interface RecordedCall {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;

export const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
  });

/**
 * Replaces `window.fetch` with a router of `"METHOD /path"` handlers (query string ignored) and records every
 * call. Unknown routes answer 404 so a test fails loudly instead of hanging.
 */
export function mockFetch(routes: Record<string, Handler>) {
  const calls: RecordedCall[] = [];
  const original = window.fetch.bind(window);
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? 'GET').toUpperCase();
    let body: unknown = init.body;
    if (typeof init.body === 'string') {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    }
    const call: RecordedCall = { method, url, body, headers: { ...(init.headers as Record<string, string>) } };
    calls.push(call);
    const path = new URL(url, 'http://localhost').pathname;
    const handler = routes[`${method} ${path}`];
    return handler ? handler(call) : json({ message: `no mock for ${method} ${path}` }, { status: 404 });
  });
  window.fetch = fn;
  return {
    calls,
    fn,
    restore: () => {
      window.fetch = original;
    },
  };
}
