import { randomUUID } from 'node:crypto';
import type { Context, EventEnvelope } from '@ques/contracts';
import type { Logger } from 'pino';
import { NatsEventBus } from '../bus/nats-bus.js';
import { connectPostgres, type Database } from '../db/database.js';
import type { KitTables } from '../db/schema.js';
import { generateJwtKeys, type JwtKeyPair } from '../http/keys.js';
import { createTestTokenSigner, integrationMessage } from './identities.js';
import { createTestDatabase, type TestDatabase } from './infra.js';
import { deleteNamespaceStreams, uniqueNamespace } from './nats.js';

/**
 * What a service's integration suite runs its instances on: a fresh database (the service's schema), a NATS bus in a
 * namespace of its own, a key pair with a token signer standing in for identity, a clock the test can move, and a way
 * to publish other services' events. The suite starts its instances with `runService(definition, { database, bus,
 * clock, config: load…Config({ JWT_PUBLIC_KEY: bed.keys.publicKey }) })`, stops them, then calls `close`.
 */
export interface TestBed<DB extends KitTables> {
  testDb: TestDatabase;
  database: Database<DB>;
  bus: NatsEventBus;
  namespace: string;
  keys: JwtKeyPair;
  /** Real time plus what `advance` added. */
  clock: () => Date;
  advance: (ms: number) => void;
  /** An access token for `user` (a fresh session), as identity would sign it. */
  token: (user: { id: string; username: string }) => string;
  /**
   * Publishes an event the way another service's relay would (envelope, msgID = event id). `redeliver`: the id of an
   * event already published — the same envelope again under a new transport msgID, past JetStream's duplicate window.
   */
  publish(message: {
    context: Context;
    type: string;
    data: unknown;
    streamId: string;
    streamVersion?: number;
    redeliver?: string;
  }): Promise<EventEnvelope>;
  /** Closes the bus, deletes the namespace's streams, closes the pool and drops the database. */
  close(): Promise<void>;
}

export async function startTestBed<DB extends KitTables>(opts: {
  natsUrl: string;
  schema: Context;
  log: Logger;
  /** Pool size (two instances and the test share it). Default 20. */
  maxConnections?: number;
}): Promise<TestBed<DB>> {
  const testDb = await createTestDatabase();
  const database = connectPostgres<DB>({
    connectionString: testDb.url,
    schema: opts.schema,
    max: opts.maxConnections ?? 20,
  });
  const namespace = uniqueNamespace(opts.schema);
  const bus = await NatsEventBus.connect({
    servers: opts.natsUrl,
    name: `${opts.schema}-test`,
    namespace,
    log: opts.log,
  });
  const keys = generateJwtKeys();
  const signer = await createTestTokenSigner(keys);
  let offset = 0;
  const clock = () => new Date(Date.now() + offset);
  return {
    testDb,
    database,
    bus,
    namespace,
    keys,
    clock,
    advance: (ms) => void (offset += ms),
    token: (user) => signer.sign(user),
    async publish({ context, type, data, streamId, streamVersion = 1, redeliver }) {
      const message = integrationMessage({
        context,
        type,
        data,
        streamId,
        streamVersion,
        occurredAt: clock(),
        id: redeliver,
        msgId: redeliver ? `${redeliver}:again:${randomUUID()}` : undefined,
      });
      await bus.publish([message]);
      return message.envelope;
    },
    async close() {
      await signer.close();
      await bus.close();
      await deleteNamespaceStreams(opts.natsUrl, namespace);
      await database.close();
      await testDb.drop();
    },
  };
}

/** A suite's way to publish another service's event (context, type, data, stream, version) as its relay would. */
export type PublishEvent = (
  context: Context,
  type: string,
  data: unknown,
  streamId: string,
  streamVersion?: number,
) => Promise<EventEnvelope>;
