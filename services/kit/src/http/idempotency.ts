import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { IdempotencyTables } from '../db/schema.js';
import { AppError, badRequest, conflict } from '../errors.js';
import { systemClock, type Clock } from '../events/types.js';
import { optionalUser } from './auth.js';
import { QueryTemplate } from '../db/query-template.js';
import { DEVICE_HEADER, isDeviceToken } from '@ques/contracts';

/**
 * `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header) for routes that opt in with
 * `config: { idempotent: true }`; the design and its reasoning are in ADR 0016.
 *
 * - The first request with a key claims it (a short transaction of its own), runs, and its response is stored:
 *   the same key with the same request (method, URL, caller, canonical body) replays it with
 *   `Idempotent-Replayed: true`; with another request it is a 422; while the first still runs, a 409.
 * - A 5xx (and 408/409/425/429, which say "try again", and 404, which may not last) is not stored: the claim is
 *   released and a retry runs again.
 * - The route keys its effect with `idempotentId(request)`, a uuid derived from caller + key: if the first attempt
 *   committed and then failed (a dropped connection, a crash before the response was stored), the retry's append at
 *   version 0 conflicts with what committed, and the route answers with the existing resource instead of a second one.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Honour an `Idempotency-Key` request header on this route (ADR 0016). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The claimed key of an idempotent route's request, or null (no key sent, or the route did not opt in). */
    idempotency: IdempotencyClaim | null;
  }
}

export interface IdempotencyClaim {
  key: string;
  /**
   * `user:<id>`, or `guest:<hash of device token and asker e-mail>` (ADR 0054): keys are scoped by caller, so two
   * callers never share (or see) each other's entries — nor, once a key expired, its derived ids.
   */
  caller: string;
}

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

export const IDEMPOTENCY_MESSAGES = {
  invalidKey: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.',
  mismatch: 'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
  inProgress:
    'A request with this Idempotency-Key is still being processed. Please wait a moment, then try again.',
  tooDeep: 'The request body is nested too deeply.',
  guestDevice:
    'An Idempotency-Key from a guest needs the X-Ques-Device header (the device token): send it, or leave the key out.',
} as const;

export interface IdempotencyOptions {
  /** The service's database seen through the table (`idempotencyView`). */
  database: { db: Kysely<IdempotencyTables> };
  log: Logger;
  clock?: Clock;
  /**
   * How long a claim counts as "in flight" (409 to a duplicate). A claim left by a process that died is taken over
   * after this; the keyed effect keeps that re-run from duplicating anything. Default 30 s (the BFF's upstream timeout).
   */
  leaseMs?: number;
  /** How long a key and its response are kept. Default 24 h (the draft's usual expiry; the floor issue 12 sets). */
  retentionMs?: number;
}

/** Response headers a replay repeats; the rest (dates, ids, CORS) belong to the new exchange. */
const REPLAYED_HEADERS = [
  'content-type',
  'location',
  'cache-control',
  'etag',
  'last-modified',
  'x-next-cursor',
];
/**
 * Statuses that tell the client to try again later: storing them would make the retry fail for a day. A 404 is one of
 * them: what it did not find may appear a moment later (a tipped question reaches its owner's inbox once the card's
 * hold arrives from payments), and a request that found nothing changed nothing, so running it again is safe.
 */
const NOT_STORED = new Set([404, 408, 409, 425, 429]);
const MAX_BODY_DEPTH = 64;
const PURGE_EVERY_MS = 10 * 60_000;
/** Background retries of a claim's release or store after a failed first try (≈ 6 s in all, well within a lease). */
const SETTLE_RETRY_MS = [100, 250, 500, 1000, 2000, 2500];
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Owned {
  claimId: string;
}
const owned = new WeakMap<FastifyRequest, Owned>();

interface KeyRow {
  fingerprint: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: Uint8Array | null;
}

/** Registers the mechanism on the service's app (runService does this): hooks that act only on opted-in routes. */
export function registerIdempotency(app: FastifyInstance, opts: IdempotencyOptions): void {
  const clock = opts.clock ?? systemClock;
  const leaseMs = opts.leaseMs ?? 30_000;
  const retentionMs = opts.retentionMs ?? 24 * 3600_000;
  const { db } = opts.database;
  const statements = idempotencyStatements(db);
  let lastPurge = 0;

  app.decorateRequest('idempotency', null);

  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config.idempotent) return;
    const key = keyOf(request.headers[IDEMPOTENCY_KEY_HEADER]);
    if (key === null) return;
    const user = await optionalUser(request);
    const caller = user ? `user:${user.sub}` : guestCaller(request);
    const fingerprint = fingerprintOf(request);
    const now = clock();
    purgeNowAndThen(now);

    // A row can vanish between the failed claim and the read (its owner got a 5xx and released it): claim again.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const claimId = randomUUID();
      const [claimed] = await statements.claim.execute(db, {
        caller,
        key,
        fingerprint,
        claimId,
        lockedUntil: new Date(now.getTime() + leaseMs),
        expiresAt: new Date(now.getTime() + retentionMs),
        now,
      });
      if (claimed) {
        owned.set(request, { claimId });
        request.idempotency = { key, caller };
        return;
      }
      const [row]: (KeyRow | undefined)[] = await statements.read.execute(db, { caller, key });
      if (!row) continue;
      if (row.fingerprint !== fingerprint) throw new AppError('UNPROCESSABLE', IDEMPOTENCY_MESSAGES.mismatch);
      if (row.state !== 'completed' || row.response_status === null)
        throw conflict(IDEMPOTENCY_MESSAGES.inProgress);
      return replay(reply, row);
    }
    throw conflict(IDEMPOTENCY_MESSAGES.inProgress);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = owned.get(request);
    if (!claim) return payload;
    owned.delete(request);
    const { key, caller } = request.idempotency!;
    const status = reply.statusCode;
    const body = storable(payload);
    const mine = { caller, key, claimId: claim.claimId };
    if (status >= 500 || NOT_STORED.has(status) || body === null) {
      // Not an answer to keep (or a stream we cannot keep): the next try with this key runs again.
      await settle(request, () => release(mine), 'could not release the idempotency claim');
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    await settle(request, () => store(mine, status, headers, body), 'could not store the idempotent response');
    return payload;
  });

  /** Lets the next try with the key run again (only while the claim is still ours). */
  async function release(claim: { caller: string; key: string; claimId: string }): Promise<void> {
    await statements.release.execute(db, claim);
  }

  /** Keeps the answer for replays — only while the claim is still ours: a taken-over lease keeps the newer answer. */
  async function store(
    claim: { caller: string; key: string; claimId: string },
    status: number,
    headers: Record<string, string>,
    body: Buffer,
  ): Promise<void> {
    await statements.store.execute(db, { ...claim, status, headers: JSON.stringify(headers), body });
  }

  /**
   * Settles a claim before the response goes out; if the database is away at that moment (a dropped connection, a
   * restart), keeps trying in the background for a few seconds instead of leaving the key "in flight" — and every
   * retry of it answered 409 — until its lease ends. Past those tries the lease still takes over.
   */
  async function settle(request: FastifyRequest, attempt: () => Promise<void>, failure: string): Promise<void> {
    try {
      await attempt();
      return;
    } catch (first) {
      const later = (async () => {
        let err = first;
        for (const delayMs of SETTLE_RETRY_MS) {
          await sleep(delayMs);
          try {
            return await attempt();
          } catch (retryErr) {
            err = retryErr;
          }
        }
        request.log.warn({ err }, `${failure}; its lease will let a retry run again`);
      })();
      pending.add(later);
      void later.finally(() => pending.delete(later));
    }
  }

  // The response waits for the first try only; a close waits for the background ones.
  const pending = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...pending]);
  });

  function purgeNowAndThen(now: Date): void {
    if (now.getTime() - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = now.getTime();
    db.deleteFrom('idempotency_keys')
      .where('expires_at', '<', now)
      .execute()
      .catch((err: unknown) => opts.log.warn({ err }, 'could not purge expired idempotency keys'));
  }
}

/**
 * The mechanism's four statements, compiled once per app (ADR 0049: every idempotent request sends two of them, and
 * kysely built each of them anew per request). The SQL is the builders' own (`query-template.ts`).
 */
function idempotencyStatements(db: Kysely<IdempotencyTables>) {
  type Claim = { caller: string; key: string; claimId: string };
  const claim = QueryTemplate.compile<
    Claim & { fingerprint: string; lockedUntil: Date; expiresAt: Date; now: Date },
    { claim_id: string }
  >(['caller', 'key', 'fingerprint', 'claimId', 'lockedUntil', 'expiresAt', 'now'], (p) =>
    db
      .insertInto('idempotency_keys')
      .values({
        caller: p.caller,
        key: p.key,
        fingerprint: p.fingerprint,
        state: 'in_progress',
        claim_id: p.claimId,
        locked_until: p.lockedUntil,
        expires_at: p.expiresAt,
        created_at: p.now,
      })
      .onConflict((oc) =>
        oc
          .columns(['caller', 'key'])
          .doUpdateSet((eb) => ({
            fingerprint: eb.ref('excluded.fingerprint'),
            state: 'in_progress',
            claim_id: eb.ref('excluded.claim_id'),
            locked_until: eb.ref('excluded.locked_until'),
            expires_at: eb.ref('excluded.expires_at'),
            created_at: eb.ref('excluded.created_at'),
            response_status: null,
            response_headers: null,
            response_body: null,
          }))
          // Taken over only when expired, or when the same request's claim outlived its lease (its process died).
          .where((eb) =>
            eb.or([
              eb('idempotency_keys.expires_at', '<=', p.now),
              eb.and([
                eb('idempotency_keys.state', '=', 'in_progress'),
                eb('idempotency_keys.locked_until', '<=', p.now),
                eb('idempotency_keys.fingerprint', '=', p.fingerprint),
              ]),
            ]),
          ),
      )
      .returning('claim_id'),
  );
  const read = QueryTemplate.compile<{ caller: string; key: string }, KeyRow>(['caller', 'key'], (p) =>
    db
      .selectFrom('idempotency_keys')
      .select(['fingerprint', 'state', 'response_status', 'response_headers', 'response_body'])
      .where('caller', '=', p.caller)
      .where('key', '=', p.key),
  );
  const release = QueryTemplate.compile<Claim, unknown>(['caller', 'key', 'claimId'], (p) =>
    db
      .deleteFrom('idempotency_keys')
      .where('caller', '=', p.caller)
      .where('key', '=', p.key)
      .where('claim_id', '=', p.claimId),
  );
  const store = QueryTemplate.compile<Claim & { status: number; headers: string; body: Buffer }, unknown>(
    ['caller', 'key', 'claimId', 'status', 'headers', 'body'],
    (p) =>
      db
        .updateTable('idempotency_keys')
        .set({ state: 'completed', response_status: p.status, response_headers: p.headers, response_body: p.body })
        .where('caller', '=', p.caller)
        .where('key', '=', p.key)
        .where('claim_id', '=', p.claimId),
  );
  return { claim, read, release, store };
}

/** The serialized body as bytes; null for a stream, which cannot be kept. */
function storable(payload: unknown): Buffer | null {
  if (typeof payload === 'string') return Buffer.from(payload);
  if (Buffer.isBuffer(payload)) return payload;
  if (payload === null || payload === undefined) return Buffer.alloc(0);
  return null;
}

function replay(reply: FastifyReply, row: KeyRow): FastifyReply {
  for (const [name, value] of Object.entries(row.response_headers ?? {})) void reply.header(name, value);
  return reply
    .header(IDEMPOTENT_REPLAYED_HEADER, 'true')
    .status(row.response_status!)
    .send(Buffer.from(row.response_body ?? new Uint8Array()));
}

/**
 * The key, or null when none was sent. The draft's value is a structured-field string (`"…"`); the bare form most
 * clients send is accepted too, and both name the same key.
 */
function keyOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  if (typeof header !== 'string') throw badRequest(IDEMPOTENCY_MESSAGES.invalidKey);
  const quoted = /^"(.*)"$/.exec(header);
  const key = quoted ? quoted[1]! : header;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw badRequest(IDEMPOTENCY_MESSAGES.invalidKey);
  return key;
}

/**
 * A guest's scope (issue 33, ADR 0054): their device token and the asker's e-mail the body carries (`askedEmail`,
 * or a checkout's `questionData.askedEmail`), lower-cased. Without a device token a guest's key is refused: a scope
 * every guest shared let one guest replay (or block) another's request.
 */
function guestCaller(request: FastifyRequest): string {
  const device = request.headers[DEVICE_HEADER];
  if (typeof device !== 'string' || !isDeviceToken(device)) throw badRequest(IDEMPOTENCY_MESSAGES.guestDevice);
  const body = (request.body ?? {}) as { askedEmail?: unknown; questionData?: { askedEmail?: unknown } };
  const email = body.askedEmail ?? body.questionData?.askedEmail;
  const scope = `${device}\n${typeof email === 'string' ? email.trim().toLowerCase() : ''}`;
  return `guest:${createHash('sha256').update(scope).digest('hex')}`;
}

/** What makes two requests "the same": method, URL as sent, and the body with object keys in a canonical order. */
function fingerprintOf(request: FastifyRequest): string {
  const hash = createHash('sha256').update(request.method).update('\n').update(request.url).update('\n');
  const body = request.body;
  if (Buffer.isBuffer(body)) hash.update('bytes\n').update(body);
  else if (typeof body === 'string') hash.update('text\n').update(body);
  else hash.update('json\n').update(canonicalJson(body, 0));
  return hash.digest('hex');
}

function canonicalJson(value: unknown, depth: number): string {
  if (depth > MAX_BODY_DEPTH) throw badRequest(IDEMPOTENCY_MESSAGES.tooDeep);
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(',')}]`;
  const entries = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k], depth + 1)}`);
  return `{${entries.join(',')}}`;
}

/** Namespace of the ids derived from idempotency keys (a fixed, random UUID). */
const IDEMPOTENCY_NAMESPACE = '3f1c9a52-7e0b-4d57-9a8e-2c41b6d0e7f3';

/** RFC 4122 version-5 UUID of `name` in `namespace` (SHA-1 based, deterministic). */
export function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const bytes = createHash('sha1').update(ns).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The id of the thing an idempotent request creates: derived from caller + key (+ `purpose` when a request creates
 * more than one thing), so a retry of a committed request names the same stream and cannot create a second one;
 * a random id when the request carries no key.
 */
export function idempotentId(request: FastifyRequest, purpose = ''): string {
  const claim = request.idempotency;
  if (!claim) return randomUUID();
  return uuidV5(`${claim.caller}\n${claim.key}\n${purpose}`, IDEMPOTENCY_NAMESPACE);
}
