import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP double of the few Stripe endpoints payments calls, for the real `stripe` SDK pointed at it
 * (host/port/protocol). It keeps objects in memory, replays idempotent requests like Stripe (same key → same
 * response, nothing done twice), refuses illegal PaymentIntent transitions with Stripe's error shape, and records
 * every request so tests can check what the SDK sent.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Record<string, any>;
  /** True when answered from the idempotency cache (nothing was done). */
  replayed: boolean;
}

interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  status: 'requires_capture' | 'succeeded' | 'canceled';
  amount: number;
  amount_received: number;
  capture_method: 'manual';
  application_fee_amount: number | null;
  transfer_data: { destination: string } | null;
  metadata: Record<string, string>;
}

interface Session {
  id: string;
  object: 'checkout.session';
  status: 'open' | 'complete' | 'expired';
  url: string | null;
  payment_intent: string | null;
  metadata: Record<string, string>;
  amount_total: number;
  currency: string;
  /** Everything the SDK sent, as parsed (tests inspect it). */
  params: Record<string, any>;
}

interface Account {
  id: string;
  object: 'account';
  charges_enabled: boolean;
  payouts_enabled: boolean;
  details_submitted: boolean;
  country: string;
  metadata: Record<string, string>;
}

const id = (prefix: string) => `${prefix}_double_${randomBytes(10).toString('hex')}`;

/** Parses Stripe's form encoding (`a[b][0][c]=x`) into nested objects and arrays. */
export function parseStripeForm(body: string): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: any = out;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]!);
      if (last) node[part] = value;
      else node = node[part] ??= nextIsIndex ? [] : {};
    });
  }
  return out;
}

const apiError = (status: number, code: string, message: string) => ({
  status,
  body: { error: { type: 'invalid_request_error', code, message } },
});

export class StripeDouble {
  readonly requests: RecordedRequest[] = [];
  readonly sessions = new Map<string, Session>();
  readonly paymentIntents = new Map<string, PaymentIntent>();
  readonly accounts = new Map<string, Account>();
  private readonly idempotent = new Map<string, { status: number; body: unknown }>();
  /** Fail the next N requests with a 500 (an outage). */
  failNext = 0;
  private server: Server | null = null;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** SDK options that send it here. */
  get sdkOptions() {
    return { host: '127.0.0.1', port: this.port, protocol: 'http' as const };
  }

  // ---- what Stripe's side would do on its own ----

  /** The customer paid on Stripe's page: the card is authorized, the PaymentIntent waits for capture. */
  completeSession(sessionId: string): { session: Session; paymentIntent: PaymentIntent } {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    if (session.status !== 'open') throw new Error(`session ${sessionId} is ${session.status}`);
    const params = session.params.payment_intent_data ?? {};
    const pi: PaymentIntent = {
      id: id('pi'),
      object: 'payment_intent',
      status: 'requires_capture',
      amount: session.amount_total,
      amount_received: 0,
      capture_method: 'manual',
      application_fee_amount: params.application_fee_amount ? Number(params.application_fee_amount) : null,
      transfer_data: params.transfer_data ? { destination: params.transfer_data.destination } : null,
      metadata: params.metadata ?? {},
    };
    this.paymentIntents.set(pi.id, pi);
    session.status = 'complete';
    session.payment_intent = pi.id;
    session.url = null;
    return { session, paymentIntent: pi };
  }

  expireSession(sessionId: string): Session {
    const session = this.sessions.get(sessionId)!;
    session.status = 'expired';
    session.url = null;
    return session;
  }

  setAccount(
    accountId: string,
    flags: Partial<Pick<Account, 'charges_enabled' | 'payouts_enabled' | 'details_submitted'>>,
  ): Account {
    const account = this.accounts.get(accountId)!;
    Object.assign(account, flags);
    return account;
  }

  /** A Stripe-shaped event around an object (what a webhook delivers). */
  event(type: string, object: object, created = Math.floor(Date.now() / 1000)) {
    return {
      id: id('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      type,
      created,
      livemode: false,
      data: { object: structuredClone(object) },
    };
  }

  requestsTo(method: string, pathPattern: RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && pathPattern.test(r.path));
  }

  // ---- the API ----

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://double');
    const body = parseStripeForm(Buffer.concat(chunks).toString('utf8'));
    const key = req.headers['idempotency-key'];
    const cacheKey = typeof key === 'string' && req.method === 'POST' ? `${url.pathname}|${key}` : null;
    const cached = cacheKey ? this.idempotent.get(cacheKey) : undefined;
    this.requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      replayed: !!cached,
    });
    let result: { status: number; body: unknown };
    if (cached) result = cached;
    else if (this.failNext > 0) {
      this.failNext -= 1;
      result = {
        status: 500,
        body: { error: { type: 'api_error', message: 'The double is having an outage.' } },
      };
    } else {
      result = this.route(req.method ?? 'GET', url, body);
      if (cacheKey && result.status < 500) this.idempotent.set(cacheKey, result);
    }
    res.writeHead(result.status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify(result.body));
  }

  private route(method: string, url: URL, body: Record<string, any>): { status: number; body: unknown } {
    const parts = url.pathname.split('/').filter(Boolean); // v1, resource, id, action
    const [, resource, a, b, c] = parts;
    if (method === 'POST' && resource === 'accounts' && !a) {
      const account: Account = {
        id: id('acct'),
        object: 'account',
        charges_enabled: false,
        payouts_enabled: false,
        details_submitted: false,
        country: body.country,
        metadata: body.metadata ?? {},
      };
      this.accounts.set(account.id, account);
      return { status: 200, body: account };
    }
    if (method === 'GET' && resource === 'accounts' && a) {
      const account = this.accounts.get(a);
      return account
        ? { status: 200, body: account }
        : apiError(404, 'resource_missing', `No such account: '${a}'`);
    }
    if (method === 'POST' && resource === 'account_links') {
      if (!this.accounts.has(body.account))
        return apiError(400, 'resource_missing', `No such account: '${body.account}'`);
      return {
        status: 200,
        body: {
          object: 'account_link',
          url: `https://connect.double.test/setup/${body.account}`,
          expires_at: 0,
        },
      };
    }
    if (resource === 'checkout' && a === 'sessions') {
      if (method === 'POST' && !b) {
        const amount = Number(body.line_items?.[0]?.price_data?.unit_amount ?? 0);
        const session: Session = {
          id: id('cs'),
          object: 'checkout.session',
          status: 'open',
          url: '',
          payment_intent: null,
          metadata: body.metadata ?? {},
          amount_total: amount,
          currency: body.line_items?.[0]?.price_data?.currency ?? 'usd',
          params: body,
        };
        session.url = `https://checkout.double.test/c/pay/${session.id}`;
        this.sessions.set(session.id, session);
        return { status: 200, body: this.sessionJson(session, false) };
      }
      const session = b ? this.sessions.get(b) : undefined;
      if (!session) return apiError(404, 'resource_missing', `No such checkout.session: '${b}'`);
      if (method === 'GET' && !c) {
        const expand = [...url.searchParams.entries()].some(
          ([k, v]) => k.startsWith('expand') && v === 'payment_intent',
        );
        return { status: 200, body: this.sessionJson(session, expand) };
      }
      if (method === 'POST' && c === 'expire') {
        if (session.status !== 'open')
          return apiError(
            400,
            'checkout_session_not_open',
            `Only Checkout Sessions with a status in ["open"] can be expired.`,
          );
        return { status: 200, body: this.sessionJson(this.expireSession(session.id), false) };
      }
    }
    if (resource === 'payment_intents' && a) {
      const pi = this.paymentIntents.get(a);
      if (!pi) return apiError(404, 'resource_missing', `No such payment_intent: '${a}'`);
      if (method === 'GET' && !b) return { status: 200, body: pi };
      if (method === 'POST' && b === 'capture') {
        if (pi.status !== 'requires_capture')
          return apiError(
            400,
            'payment_intent_unexpected_state',
            `This PaymentIntent could not be captured because it has a status of ${pi.status}.`,
          );
        pi.status = 'succeeded';
        pi.amount_received = pi.amount;
        return { status: 200, body: pi };
      }
      if (method === 'POST' && b === 'cancel') {
        if (pi.status !== 'requires_capture')
          return apiError(
            400,
            'payment_intent_unexpected_state',
            `You cannot cancel this PaymentIntent because it has a status of ${pi.status}.`,
          );
        pi.status = 'canceled';
        return { status: 200, body: pi };
      }
    }
    return apiError(404, 'unknown_route', `The double does not serve ${method} ${url.pathname}`);
  }

  private sessionJson(session: Session, expand: boolean) {
    const { params: _params, ...json } = session;
    return {
      ...json,
      payment_intent:
        expand && session.payment_intent
          ? this.paymentIntents.get(session.payment_intent)
          : session.payment_intent,
    };
  }
}
