import { randomUUID } from 'node:crypto';
import { sleep } from '../util.js';

/** What the clients of one phase saw on the wire. */
export interface HttpStats {
  requests: number;
  status2xx: number;
  status3xx: number;
  status4xx: number;
  status5xx: number;
  /** Connection refused or reset, timeouts: no HTTP answer at all. */
  networkErrors: number;
  /** Attempts after the first one of a logical call. */
  retries: number;
}

export const emptyStats = (): HttpStats => ({
  requests: 0,
  status2xx: 0,
  status3xx: 0,
  status4xx: 0,
  status5xx: 0,
  networkErrors: 0,
  retries: 0,
});

export interface Reply {
  status: number;
  body: any;
  location: string | null;
}

export interface SendOptions {
  json?: unknown;
  /** An HTML form post (the test-mode checkout's "Pay" button). */
  form?: string;
  token?: string;
  idempotencyKey?: string;
}

/**
 * The device token a browser sends (`X-Ques-Device`): each logical call is a fresh browser, and every attempt of it the
 * same one (a guest's Idempotency-Key is scoped to it, and a guest without one shares the no-device bucket of the
 * guest limit; ADR 0054).
 */
const deviceFor = (opts: SendOptions) => `device-${(opts.idempotencyKey ?? randomUUID()).replace(/[^A-Za-z0-9_-]/g, '')}`.slice(0, 128);

export interface ReliableOptions extends SendOptions {
  /** Epoch ms after which no further attempt is made. */
  deadline: number;
  /** Which answers deserve another attempt; default: 5xx and 429. */
  retryOn?: (reply: Reply) => boolean;
}

export type ReliableResult =
  | { ok: true; reply: Reply; attempts: number }
  /** No usable answer before the deadline: `last` says what the final attempt got. */
  | { ok: false; reply: Reply | null; attempts: number; last: string };

const defaultRetryOn = (reply: Reply) => reply.status >= 500 || reply.status === 429;

/**
 * A client of the BFF's /api as the web app is meant to behave after issue 12: every attempt of one logical call
 * carries the same body and the same `Idempotency-Key`, and a network error, a 5xx or a 429 is retried (with
 * backoff) until an answer or the deadline. Whether a retry can duplicate anything is the server's business — that
 * is what the checks measure.
 */
export class BffClient {
  constructor(
    readonly base: string,
    public stats: HttpStats = emptyStats(),
    /** Aborting ends every attempt in flight and every retry loop (the run was interrupted). */
    readonly signal?: AbortSignal,
  ) {}

  /** One attempt. Throws on a network error or timeout (no HTTP answer). */
  async send(method: string, path: string, opts: SendOptions = {}, timeoutMs = 30_000): Promise<Reply> {
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = opts.form;
    }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
    headers['x-ques-device'] = deviceFor(opts);
    const url = path.startsWith('http') ? path : `${this.base}${path}`;
    this.stats.requests += 1;
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        method,
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      this.stats.networkErrors += 1;
      throw err;
    }
    const klass = Math.floor(res.status / 100);
    if (klass === 2) this.stats.status2xx += 1;
    else if (klass === 3) this.stats.status3xx += 1;
    else if (klass === 4) this.stats.status4xx += 1;
    else this.stats.status5xx += 1;
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // HTML pages and plain text stay strings
    }
    return { status: res.status, body: parsed, location: res.headers.get('location') };
  }

  /** Retries one logical call until it gets an answer that is not worth retrying, or the deadline passes. */
  async reliably(method: string, path: string, opts: ReliableOptions): Promise<ReliableResult> {
    const retryOn = opts.retryOn ?? defaultRetryOn;
    let attempts = 0;
    let last = 'not attempted';
    let lastReply: Reply | null = null;
    for (;;) {
      if (this.signal?.aborted) return { ok: false, reply: lastReply, attempts, last: 'aborted' };
      attempts += 1;
      if (attempts > 1) this.stats.retries += 1;
      try {
        const reply = await this.send(
          method,
          path,
          opts,
          Math.max(1_000, Math.min(30_000, opts.deadline - Date.now())),
        );
        lastReply = reply;
        if (!retryOn(reply)) return { ok: true, reply, attempts };
        last = `${reply.status} ${summary(reply.body)}`;
      } catch (err) {
        last = (err as Error).message;
      }
      const backoff = Math.min(100 * 2 ** (attempts - 1), 2_000) * (0.5 + Math.random());
      if (Date.now() + backoff > opts.deadline) return { ok: false, reply: lastReply, attempts, last };
      await sleep(backoff);
    }
  }
}

export function summary(body: unknown): string {
  if (body && typeof body === 'object' && 'message' in body) return String(body.message).slice(0, 160);
  return (typeof body === 'string' ? body : (JSON.stringify(body) ?? '')).slice(0, 160);
}
