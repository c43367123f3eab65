import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { subjectFor, type Context, type EventEnvelope, type UserSnapshot } from '@ques/contracts';
import type { OutgoingMessage } from '../bus/bus.js';
import { registerJwt, signAccessToken } from '../http/auth.js';
import type { JwtKeyPair } from '../http/keys.js';

const JWT = { issuer: 'ques-identity', audience: 'ques' };

/** Stands in for identity in a service's tests: access tokens signed with the test key pair. */
export interface TestTokenSigner {
  /** A token for a fresh session of `user`. */
  sign(user: { id: string; username: string }): string;
  close(): Promise<void>;
}

export async function createTestTokenSigner(keys: JwtKeyPair): Promise<TestTokenSigner> {
  const signer = Fastify();
  await registerJwt(signer, { ...keys, ...JWT });
  await signer.ready();
  return {
    sign: (user) => signAccessToken(signer, { sub: user.id, username: user.username, sid: randomUUID(), typ: 'access' }),
    close: () => signer.close(),
  };
}

/**
 * An integration event as another service's outbox relay would publish it (for feeding a consumer in tests).
 * `msgId` defaults to the event id; pass another to get a redelivery past JetStream's duplicate window.
 */
export function integrationMessage(opts: {
  context: Context;
  type: string;
  data: unknown;
  streamId: string;
  streamVersion?: number;
  occurredAt?: Date;
  id?: string;
  msgId?: string;
}): OutgoingMessage & { envelope: EventEnvelope } {
  const id = opts.id ?? randomUUID();
  const envelope: EventEnvelope = {
    id,
    type: opts.type,
    version: 1,
    streamId: opts.streamId,
    streamVersion: opts.streamVersion ?? 1,
    occurredAt: (opts.occurredAt ?? new Date()).toISOString(),
    correlationId: `test-${id}`,
    causationId: null,
    data: opts.data,
  };
  return { subject: subjectFor(opts.context, opts.type), envelope, msgId: opts.msgId ?? id };
}

/** A user as identity's `UserRegistered` / `ProfileUpdated` events carry them, with the spec's defaults. */
export function userSnapshot(over: Partial<UserSnapshot> & { userId: string; username: string }): UserSnapshot {
  return {
    name: over.username,
    email: `${over.username}@example.com`,
    bio: '',
    avatarUrl: '/images/user-image.png',
    brandColorMain: '#1A140F',
    brandColorLight: '#FAF6F2',
    archiveProfile: false,
    ...over,
  };
}
