import { z } from 'zod';

/** Bounded contexts; each owns one JetStream stream (upper-cased name) and the subjects `ques.<context>.<EventType>`. */
export const CONTEXTS = ['identity', 'questions', 'payments', 'support'] as const;
export type Context = (typeof CONTEXTS)[number];

/**
 * The envelope every integration event travels in, over NATS and the in-process bus alike.
 * `id` is the event id in the producer's event store and the JetStream msgID (server-side dedupe).
 */
export const ZEventEnvelope = z.object({
  id: z.uuid(),
  type: z.string().min(1),
  version: z.number().int().positive(),
  streamId: z.string().min(1),
  streamVersion: z.number().int().positive(),
  occurredAt: z.iso.datetime({ offset: true }),
  correlationId: z.string().min(1),
  causationId: z.string().nullable(),
  data: z.unknown(),
});
export type EventEnvelope<TData = unknown> = Omit<z.infer<typeof ZEventEnvelope>, 'data'> & { data: TData };

/** Subject of an integration event, without any test namespace prefix. */
export function subjectFor(context: Context, eventType: string): string {
  return `ques.${context}.${eventType}`;
}

/** JetStream stream name for a context. */
export function streamNameFor(context: Context): string {
  return context.toUpperCase();
}
