import { z } from 'zod';
import { OPERATOR_ERRORS } from './ops.js';
import { defineCall, type ServiceName } from './call.js';

/*
 * The operator console's event-stream calls (issue 18, ADR 0032): every service answers the same set under its own
 * path, with the kit's operator tools (ADR 0027) — the same functions as its admin CLI. Operators only: the BFF
 * requires a token, the service's operator guard refuses everyone else (404).
 */

export const OPS_SERVICES = [
  'identity',
  'questions',
  'payments',
  'support',
] as const satisfies readonly ServiceName[];
export type OpsService = (typeof OPS_SERVICES)[number];

export const ZOpsJob = z.strictObject({
  id: z.string(),
  command: z.enum(['rebuild-projections', 'republish']),
  status: z.enum(['running', 'done', 'failed']),
  operator: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Events handled so far, and of how many when known. */
  progress: z.strictObject({ done: z.number(), total: z.number().nullable(), phase: z.string().nullable() }),
  error: z.string().nullable(),
});
export type OpsJob = z.infer<typeof ZOpsJob>;

export const ZOpsStreamStatus = z.strictObject({
  service: z.string(),
  /** Last sequence of each stream the service writes or reads (null: not known on this bus). */
  streams: z.record(z.string(), z.number().nullable()),
  consumers: z.array(
    z.strictObject({
      durable: z.string(),
      stream: z.string(),
      pending: z.number(),
      ackPending: z.number(),
      redelivered: z.number(),
    }),
  ),
  outbox: z.strictObject({ backlog: z.number(), oldestAgeSeconds: z.number() }),
  deadLetters: z.record(z.string(), z.number()),
  scheduler: z.strictObject({ due: z.number(), latenessSeconds: z.number() }),
  lastRebuild: z.strictObject({ operator: z.string(), at: z.string() }).nullable(),
  /** The last position of the service's own event store ("republish from N" goes up to it). */
  lastPosition: z.number(),
  jobs: z.array(ZOpsJob),
});
export type OpsStreamStatus = z.infer<typeof ZOpsStreamStatus>;

export const ZOpsDeadLetter = z.strictObject({
  id: z.number(),
  consumer: z.string(),
  subject: z.string(),
  eventId: z.string().nullable(),
  error: z.string(),
  attempts: z.number(),
  createdAt: z.string(),
  /** The parked envelope with personal fields masked (`•••`). */
  payload: z.unknown(),
});
export type OpsDeadLetter = z.infer<typeof ZOpsDeadLetter>;

export const ZOpsRetryOutcome = z.strictObject({
  id: z.number(),
  outcome: z.enum(['applied', 'already applied', 'not found', 'failed']),
  error: z.string().nullable(),
});
export type OpsRetryOutcome = z.infer<typeof ZOpsRetryOutcome>;

const ZLetterParams = z.object({ id: z.coerce.number().int().positive() });
const ZJobParams = z.object({ jobId: z.string().max(64) });
export const ZRepublishRequest = z.strictObject({
  from: z.number().int().min(0),
  to: z.number().int().min(0).optional(),
});

/** The calls one service answers for the console; paths are `/api/ops/streams/<service>/…`. */
export function streamOpsCalls<const S extends OpsService>(service: S) {
  const base = `/api/ops/streams/${service}` as const;
  const cap = `${service[0]!.toUpperCase()}${service.slice(1)}`;
  return {
    status: defineCall({
      id: `opsStreamStatus${cap}`,
      method: 'GET',
      path: `${base}/status`,
      service,
      summary: `Operators: ${service}'s streams, consumers and lag, outbox, scheduler, dead letters, jobs`,
      auth: 'operator',
      errors: OPERATOR_ERRORS,
      schema: { response: { 200: ZOpsStreamStatus } },
    }),
    deadLetters: defineCall({
      id: `opsDeadLetters${cap}`,
      method: 'GET',
      path: `${base}/dead-letters`,
      service,
      summary: `Operators: ${service}'s parked messages (personal fields masked), oldest first`,
      auth: 'operator',
      errors: OPERATOR_ERRORS,
      schema: { response: { 200: z.array(ZOpsDeadLetter) } },
    }),
    retry: defineCall({
      id: `opsRetryDeadLetter${cap}`,
      method: 'POST',
      path: `${base}/dead-letters/:id/retry`,
      service,
      summary: `Operators: run a parked ${service} message through its consumer again (exactly once)`,
      auth: 'operator',
      idempotent: true,
      errors: OPERATOR_ERRORS,
      schema: { params: ZLetterParams, body: z.object({}).nullish(), response: { 200: ZOpsRetryOutcome } },
    }),
    drop: defineCall({
      id: `opsDropDeadLetter${cap}`,
      method: 'POST',
      path: `${base}/dead-letters/:id/drop`,
      service,
      summary: `Operators: give up on a parked ${service} message (its payload goes to the operator log)`,
      auth: 'operator',
      idempotent: true,
      errors: OPERATOR_ERRORS,
      schema: {
        params: ZLetterParams,
        body: z.object({}).nullish(),
        response: { 200: z.strictObject({ id: z.number(), dropped: z.boolean() }) },
      },
    }),
    rebuild: defineCall({
      id: `opsRebuild${cap}`,
      method: 'POST',
      path: `${base}/rebuild`,
      service,
      summary: `Operators: rebuild ${service}'s read models from its events (online; progress in the job)`,
      auth: 'operator',
      idempotent: true,
      errors: { ...OPERATOR_ERRORS, 409: ['A job is already running for this service.'] },
      schema: { body: z.object({}).nullish(), response: { 202: ZOpsJob } },
    }),
    republish: defineCall({
      id: `opsRepublish${cap}`,
      method: 'POST',
      path: `${base}/republish`,
      service,
      summary: `Operators: re-publish ${service}'s integration events after position N (progress in the job)`,
      auth: 'operator',
      idempotent: true,
      errors: {
        400: ['"to" must not be before "from".'],
        ...OPERATOR_ERRORS,
        409: ['A job is already running for this service.'],
      },
      schema: { body: ZRepublishRequest, response: { 202: ZOpsJob } },
    }),
    job: defineCall({
      id: `opsJob${cap}`,
      method: 'GET',
      path: `${base}/jobs/:jobId`,
      service,
      summary: `Operators: one ${service} job's live progress`,
      auth: 'operator',
      errors: { ...OPERATOR_ERRORS, 404: [...OPERATOR_ERRORS[404], 'No such job.'] },
      schema: { params: ZJobParams, response: { 200: ZOpsJob } },
    }),
  } as const;
}

export type StreamOpsCalls<S extends OpsService = OpsService> = ReturnType<typeof streamOpsCalls<S>>;

export const opsStreamsApi = {
  identity: streamOpsCalls('identity'),
  questions: streamOpsCalls('questions'),
  payments: streamOpsCalls('payments'),
  support: streamOpsCalls('support'),
} as const;
