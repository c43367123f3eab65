/**
 * The one HTTP client of the web app (spec §4 "401 handling", §7 "Every call through the shared client sends
 * a bearer access token when present").
 *
 * - Sends `Authorization: Bearer <accessToken>` when a token is stored (unless the call is `anonymous`).
 * - On 401 it refreshes once with the stored refresh token, saves BOTH new tokens (they rotate), announces
 *   `token-refreshed`, and retries the request once.
 * - If the refresh is refused, both tokens are removed and the user is sent to /login.
 * - Concurrent 401s share one refresh: a rotated refresh token may only be spent once, or the server revokes
 *   the whole family. Across tabs the Web Locks API serialises refreshes when available.
 * - A submit that must not happen twice (`idempotent`: ask, checkout, answer, support) carries one
 *   `Idempotency-Key`, a UUID made when the user submits, and is retried once with the same key after a network
 *   error or a 5xx: the server answers the retry with the first attempt's result instead of a duplicate.
 */
import { STORAGE_KEYS } from './storage';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    /** The `message` of the `{ message }` error body, when the server sent one. */
    readonly serverMessage: string | undefined,
    readonly body?: unknown,
  ) {
    super(serverMessage ?? `Request failed (status: ${status})`);
  }
}

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please log in again.';

export interface RequestOptions {
  method?: HttpMethod;
  /** JSON-serialisable value, FormData, or a function producing either (evaluated per attempt). */
  body?: unknown;
  query?: Record<string, string | number | undefined | null>;
  signal?: AbortSignal;
  /** No bearer token and no refresh on 401 (login, signup, password reset). */
  anonymous?: boolean;
  /**
   * What a refused refresh does besides removing both tokens: 'redirect' (default, spec §4) sends the user
   * to /login; 'stay' leaves navigation to the caller (the background "who am I" fetch on public pages).
   */
  onSessionExpired?: 'redirect' | 'stay';
  /** Extra request headers (the device token on ask and checkout). */
  headers?: Record<string, string>;
  /**
   * One submit that must not happen twice: sends an `Idempotency-Key` (a new UUID per call unless
   * `idempotencyKey` is given) on every attempt, and retries once on a network error or a 5xx.
   */
  idempotent?: boolean;
  /** The key to send with an idempotent call (default: a new one for this call). */
  idempotencyKey?: string;
}

export interface ApiClientDeps {
  fetch: typeof fetch;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  redirectToLogin: () => void;
  onTokenRefreshed: () => void;
  /** Serialises the refresh across tabs; optional. */
  withLock?: <T>(name: string, fn: () => Promise<T>) => Promise<T>;
}

export interface ApiClient {
  /** Raw response after auth handling (use for headers such as `x-next-cursor`). */
  request(path: string, options?: RequestOptions): Promise<Response>;
  /** Parsed JSON of a 2xx response; throws ApiError otherwise. */
  json<T>(path: string, options?: RequestOptions): Promise<T>;
}

const REFRESH_PATH = '/api/users/refresh-token';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * A random v4 UUID (`crypto.randomUUID`, in secure contexts: HTTPS and localhost); elsewhere (plain HTTP on a LAN
 * address) 128 random bits in hex, which the server accepts as well (1–255 visible ASCII characters).
 */
export const newIdempotencyKey = (): string =>
  crypto.randomUUID?.() ?? Array.from(crypto.getRandomValues(new Uint32Array(4)), (n) => n.toString(16)).join('-');

/** A failed fetch worth one retry: the network, not the caller, gave up (an abort is the caller's wish). */
const isNetworkError = (err: unknown) => !(err instanceof DOMException && err.name === 'AbortError');

function buildUrl(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

export async function readErrorMessage(res: Response): Promise<{ message: string | undefined; body: unknown }> {
  try {
    const text = await res.text();
    if (!text) return { message: undefined, body: undefined };
    const body = JSON.parse(text) as unknown;
    const message =
      body && typeof body === 'object' && 'message' in body && typeof body.message === 'string'
        ? body.message
        : undefined;
    return { message, body };
  } catch {
    return { message: undefined, body: undefined };
  }
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  let inFlightRefresh: Promise<string | null> | null = null;

  const sendOnce = (url: string, options: RequestOptions, token: string | null, key: string | null): Promise<Response> => {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (key) headers[IDEMPOTENCY_HEADER] = key;
    let body: BodyInit | undefined;
    const raw: unknown = typeof options.body === 'function' ? (options.body as () => unknown)() : options.body;
    if (raw instanceof FormData) {
      body = raw; // the browser sets the multipart boundary
    } else if (raw !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(raw);
    }
    if (token && !options.anonymous) headers.Authorization = `Bearer ${token}`;
    return deps.fetch(url, {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: options.signal,
      credentials: 'same-origin',
    });
  };

  /** One attempt, and for an idempotent call one more with the same key after a network error or a 5xx. */
  const send = async (url: string, options: RequestOptions, token: string | null, key: string | null): Promise<Response> => {
    if (!key) return sendOnce(url, options, token, null);
    let first: Response;
    try {
      first = await sendOnce(url, options, token, key);
    } catch (err) {
      if (!isNetworkError(err)) throw err;
      return sendOnce(url, options, token, key);
    }
    if (first.status < 500) return first;
    await first.body?.cancel().catch(() => undefined);
    return sendOnce(url, options, token, key);
  };

  /**
   * Resolves to the new access token, or null when the server refused the refresh (or there is nothing to
   * refresh with). Network failures reject: being offline is not a reason to log anyone out.
   */
  const refresh = (staleToken: string | null): Promise<string | null> => {
    if (inFlightRefresh) return inFlightRefresh;
    const run = async (): Promise<string | null> => {
      const current = deps.storage.getItem(STORAGE_KEYS.accessToken);
      // Another request (or tab) already refreshed while we waited: use its token.
      if (current && current !== staleToken) return current;
      const refreshToken = deps.storage.getItem(STORAGE_KEYS.refreshToken);
      if (!refreshToken) return null;
      const res = await deps.fetch(REFRESH_PATH, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ refreshToken }),
        credentials: 'same-origin',
      });
      if (!res.ok) return null;
      const data = (await res.json().catch(() => null)) as { accessToken?: unknown; refreshToken?: unknown } | null;
      if (!data || typeof data.accessToken !== 'string' || !data.accessToken) return null;
      deps.storage.setItem(STORAGE_KEYS.accessToken, data.accessToken);
      if (typeof data.refreshToken === 'string' && data.refreshToken) {
        deps.storage.setItem(STORAGE_KEYS.refreshToken, data.refreshToken);
      }
      deps.onTokenRefreshed();
      return data.accessToken;
    };
    const locked = deps.withLock ? deps.withLock('ques-token-refresh', run) : run();
    inFlightRefresh = locked.finally(() => {
      inFlightRefresh = null;
    });
    return inFlightRefresh;
  };

  const request = async (path: string, options: RequestOptions = {}): Promise<Response> => {
    const url = buildUrl(path, options.query);
    const token = options.anonymous ? null : deps.storage.getItem(STORAGE_KEYS.accessToken);
    // Made once per submit: the retries below (after a 5xx, a network error or a refreshed token) reuse it.
    const key = options.idempotent ? (options.idempotencyKey ?? newIdempotencyKey()) : null;
    const res = await send(url, options, token, key);
    if (res.status !== 401 || options.anonymous) return res;

    // A visitor without any session gets the 401 as it is; there is nothing to refresh.
    if (!token && !deps.storage.getItem(STORAGE_KEYS.refreshToken)) return res;

    const fresh = await refresh(token);
    if (!fresh) {
      deps.storage.removeItem(STORAGE_KEYS.accessToken);
      deps.storage.removeItem(STORAGE_KEYS.refreshToken);
      if (options.onSessionExpired !== 'stay') deps.redirectToLogin();
      throw new ApiError(401, SESSION_EXPIRED_MESSAGE);
    }
    // Retried exactly once: a second 401 is returned to the caller as is.
    return send(url, options, fresh, key);
  };

  const json = async <T>(path: string, options: RequestOptions = {}): Promise<T> => {
    const res = await request(path, options);
    if (!res.ok) {
      const { message, body } = await readErrorMessage(res);
      throw new ApiError(res.status, message, body);
    }
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  };

  return { request, json };
}
