import type { FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { streamOpsCalls } from '@ques/contracts';
import type { KitTables } from '../db/schema.js';
import { decodeEnvelope } from '../bus/naming.js';
import { routeFor } from '../http/calls.js';
import type { HttpApp } from '../http/http-app.js';
import { dropDeadLetter, listDeadLetters, retryDeadLetter } from './ops.js';
import type { StreamOpsDeps } from './console.js';

/** Keys whose values are personal (names, addresses, free text): masked in what the console shows of a payload. */
const PERSONAL_KEYS = new Set([
  'email',
  'name',
  'username',
  'bio',
  'question',
  'detail',
  'answer',
  'title',
  'description',
  'note',
  'replierName',
  'displayName',
  'avatarUrl',
  'phone',
  'address',
  'askerName',
  'askerEmail',
  'password',
  'token',
]);
const MASK = '•••';

/** A copy of `value` with every personal field's value replaced by `•••` (nested objects and arrays included). */
export function maskPersonalFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskPersonalFields);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        PERSONAL_KEYS.has(k) && v !== null && v !== undefined && typeof v !== 'boolean'
          ? MASK
          : maskPersonalFields(v),
      ]),
    );
  }
  return value;
}

/** The parked payload as the console shows it: the decoded envelope with personal fields masked. */
export function maskedPayload(payload: string): unknown {
  const decoded = decodeEnvelope(payload);
  if (decoded.ok) return maskPersonalFields(decoded.envelope);
  try {
    return maskPersonalFields(JSON.parse(payload));
  } catch {
    return `${MASK} (${payload.length} bytes, not JSON)`;
  }
}

/** The console's dead letters of one service: listed (payloads masked), retried, dropped — each act audited. */
export function registerDeadLetterRoutes<DB extends KitTables>(
  app: HttpApp,
  calls: ReturnType<typeof streamOpsCalls>,
  deps: StreamOpsDeps<DB>,
  operatorOf: (request: FastifyRequest) => Promise<string>,
  audit: (
    request: FastifyRequest,
    action: string,
    subject: string,
    summary: string,
    detail: Record<string, unknown>,
  ) => Promise<void>,
): void {
  const db = deps.database.db as Kysely<any>;
  routeFor(app, calls.deadLetters, async (request) => {
    await operatorOf(request);
    const letters = await listDeadLetters(deps.database.db);
    const payloads = new Map(
      (
        await sql<{ id: number | string; payload: string }>`SELECT id, payload FROM dead_letters`.execute(db)
      ).rows.map((r) => [Number(r.id), r.payload]),
    );
    return letters.map((l) => ({
      id: l.id,
      consumer: l.consumer,
      subject: l.subject,
      eventId: l.eventId,
      error: l.error,
      attempts: l.attempts,
      createdAt: new Date(l.createdAt).toISOString(),
      payload: maskedPayload(payloads.get(l.id) ?? ''),
    }));
  });

  routeFor(app, calls.retry, async (request) => {
    const operator = await operatorOf(request);
    const outcome = await retryDeadLetter(deps.database, deps.consumers, request.params.id, {
      operator,
      log: deps.log,
    });
    await audit(
      request,
      'deadLetter.retry',
      `deadLetter:${deps.service}:${request.params.id}`,
      `Retried dead letter #${request.params.id} of ${deps.service}: ${outcome.outcome}`,
      { ...outcome },
    );
    return {
      id: outcome.id,
      outcome: outcome.outcome,
      error: outcome.outcome === 'failed' ? outcome.error : null,
    };
  });

  routeFor(app, calls.drop, async (request) => {
    const operator = await operatorOf(request);
    const dropped = await dropDeadLetter(deps.database, request.params.id, { operator, log: deps.log });
    if (dropped)
      await audit(
        request,
        'deadLetter.drop',
        `deadLetter:${deps.service}:${request.params.id}`,
        `Dropped dead letter #${request.params.id} of ${deps.service}`,
        { id: request.params.id },
      );
    return { id: request.params.id, dropped };
  });
}
