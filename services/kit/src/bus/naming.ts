import { z } from 'zod';
import { streamNameFor, ZEventEnvelope, type Context, type EventEnvelope } from '@ques/contracts';

/*
 * Names and subjects shared by both bus adapters, plus the few delivery rules (envelope decoding, retry delays) that
 * must behave identically in NATS and in-process mode.
 */

// A namespace becomes a subject prefix, so every dot-separated part must be a plain subject token.
const NAMESPACE_PATTERN = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

export function assertValidNamespace(namespace: string): void {
  if (!NAMESPACE_PATTERN.test(namespace)) {
    throw new Error(
      `invalid bus namespace "${namespace}": use letters, digits, "_" or "-" (dot-separated tokens)`,
    );
  }
}

/** `${namespace}.` or '' — what every subject on the wire starts with. */
export function subjectPrefix(namespace?: string): string {
  return namespace ? `${namespace}.` : '';
}

/** The subject on the wire for a subject as the application names it (`ques.<context>.<EventType>`). */
export function wireSubject(subject: string, namespace?: string): string {
  return `${subjectPrefix(namespace)}${subject}`;
}

/** Inverse of `wireSubject`, so handlers and dead letters see the same subject in every environment. */
export function appSubject(wire: string, namespace?: string): string {
  const prefix = subjectPrefix(namespace);
  return prefix && wire.startsWith(prefix) ? wire.slice(prefix.length) : wire;
}

/** JetStream stream name of a context: `IDENTITY`, or `<NAMESPACE>_IDENTITY` under a namespace. */
export function streamName(context: Context, namespace?: string): string {
  const base = streamNameFor(context);
  if (!namespace) return base;
  // Stream names may not contain dots or wildcards; upper-case keeps them in the same family as the real ones.
  return `${namespace.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}_${base}`;
}

/** The one subject filter a context's stream captures. */
export function streamSubject(context: Context, namespace?: string): string {
  return wireSubject(`ques.${context}.>`, namespace);
}

/** NATS subject matching: `*` matches exactly one token, `>` (last token only) one or more. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    const token = p[i];
    if (token === '>') return i === p.length - 1 && s.length > i;
    if (i >= s.length) return false;
    if (token !== '*' && token !== s[i]) return false;
  }
  return p.length === s.length;
}

/**
 * A subscription reads one context's stream, so each of its subjects must lie inside `ques.<context>.>`.
 * JetStream rejects such a consumer anyway; checking here gives the in-process bus the same rule and a clear message.
 */
export function assertSubjectsInContext(context: Context, subjects: readonly string[]): void {
  if (subjects.length === 0) throw new Error(`subscription on "${context}" needs at least one subject`);
  for (const subject of subjects) {
    const [root, ctx, ...rest] = subject.split('.');
    const valid =
      root === 'ques' &&
      ctx === context &&
      rest.length > 0 &&
      rest.every((t, i) => t.length > 0 && (t !== '>' || i === rest.length - 1));
    if (!valid)
      throw new Error(
        `subject "${subject}" is not inside the "${context}" stream (expected ques.${context}.<EventType>)`,
      );
  }
}

export type DecodedEnvelope =
  { ok: true; envelope: EventEnvelope } | { ok: false; error: string; eventId: string | null };

/** Parses and validates a payload; an invalid one reports whatever event id it can, for the dead-letter row. */
export function decodeEnvelope(payload: string): DecodedEnvelope {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch (err) {
    return { ok: false, error: `payload is not JSON: ${errorMessage(err)}`, eventId: null };
  }
  const result = ZEventEnvelope.safeParse(json);
  if (result.success) return { ok: true, envelope: result.data };
  const id =
    typeof json === 'object' && json !== null && 'id' in json && typeof json.id === 'string' ? json.id : null;
  return { ok: false, error: `invalid event envelope: ${z.prettifyError(result.error)}`, eventId: id };
}

/** Delay before delivery `attempt + 1`; the last configured delay repeats. */
export function retryDelay(backoffMs: readonly number[], attempt: number): number {
  if (backoffMs.length === 0) return 0;
  return backoffMs[Math.min(Math.max(attempt, 1), backoffMs.length) - 1] ?? 0;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The JetStream API error code of a failed call (`err_code`), if it is one. */
export function apiErrorCode(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null || !('api_error' in err)) return undefined;
  const api = (err as { api_error?: { err_code?: number } }).api_error;
  return api?.err_code;
}
