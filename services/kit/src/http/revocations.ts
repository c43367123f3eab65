import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { IdentityEvents, type Context } from '@ques/contracts';
import type { Database } from '../db/database.js';
import { revocationsView, type Executor, type RevocationTables } from '../db/schema.js';
import type { ConsumerDefinition } from '../events/consumer.js';
import { systemClock, type Clock } from '../events/types.js';

/**
 * Session revocation outside identity (ADR 0017). Identity publishes `SessionsRevoked` (logout, password change or
 * reset, refresh-token reuse, account deletion) through its outbox; every other service that verifies access tokens
 * keeps the revoked session ids in its own schema (this consumer, whichever instance gets the event) and every
 * instance holds them in memory, reloaded on the consumer's NOTIFY: `requireUser` refuses a token whose `sid` is
 * there without a query per request.
 */

/**
 * How long a revoked session id is kept. Tokens of a revoked session are never issued again (identity refuses its
 * refresh tokens), so after the access-token lifetime (15 minutes) nothing can carry it; a day is a wide margin.
 */
export const REVOCATION_RETENTION_MS = 24 * 3600_000;

/** The kit's message for a token whose session has ended (the same words identity uses). */
export const SESSION_ENDED = 'Session has ended, please log in again';

/** Identity's stream: where the revocations come from. */
export const REVOCATIONS_CONTEXT: Context = 'identity';

/** NOTIFY channel on which a service's instances hear that its revocation table changed. */
export const revocationsChannel = (schema: string) => `revocations_${schema}`;

/**
 * The consumer every token-verifying service runs (runService registers it): each `SessionsRevoked` becomes rows in
 * `revoked_sessions`, in the transaction that marks the event processed.
 */
export function revocationsConsumer<DB>(
  service: string,
  database: Pick<Database, 'schema'>,
  clock: Clock = systemClock,
): ConsumerDefinition<DB> {
  return {
    durable: `${service}--revocations`,
    context: REVOCATIONS_CONTEXT,
    handlers: {
      SessionsRevoked: {
        schema: IdentityEvents.SessionsRevoked.schema,
        effect: async (executor, envelope) => {
          const trx = revocationsView(executor);
          const data = envelope.data as {
            userId: string;
            sessionIds: string[];
            reason: string;
            revokedAt: string;
          };
          const now = clock();
          await trx
            .insertInto('revoked_sessions')
            .values(
              data.sessionIds.map((sessionId) => ({
                session_id: sessionId,
                user_id: data.userId,
                reason: data.reason,
                revoked_at: new Date(data.revokedAt),
                recorded_at: now,
              })),
            )
            .onConflict((oc) => oc.column('session_id').doNothing())
            .execute();
          // Opportunistic purge: revocations arrive far more rarely than requests, and the index makes this cheap.
          await trx
            .deleteFrom('revoked_sessions')
            .where('recorded_at', '<', new Date(now.getTime() - REVOCATION_RETENTION_MS))
            .execute();
          // Delivered at commit to every instance of the service, each of which reloads its set.
          await sql`SELECT pg_notify(${revocationsChannel(database.schema)}, '')`.execute(trx);
        },
      },
    },
  };
}

/** Answers "has this session been revoked?" for `requireUser`. */
export interface RevocationCheck {
  isRevoked(sessionId: string): boolean | Promise<boolean>;
}

export interface RevokedSessionsOptions {
  /** The service's database; its `db` seen through the table (`revocationsView`). */
  database: Pick<Database, 'schema' | 'listen'> & { db: Kysely<RevocationTables> };
  log: Logger;
  /** Fallback reload when a NOTIFY is lost (the listener reconnecting). Default 1 s: the revocation bar. */
  pollIntervalMs?: number;
}

/**
 * Rows whose transaction committed after a later row was loaded are still found: each reload re-reads this far back
 * from the newest row it has seen (consumer transactions are one insert, far shorter than this).
 */
const RELOAD_OVERLAP_MS = 60_000;
/** A full reload now and then also forgets what the table purged. */
const FULL_RELOAD_MS = 10 * 60_000;

/**
 * The revoked session ids of this service, in memory: loaded before the service answers, reloaded when the consumer
 * NOTIFYs (a few milliseconds after identity's commit) and every second in case a notification was lost.
 */
export class RevokedSessions implements RevocationCheck {
  private ids = new Set<string>();
  private newest = 0;
  private lastFull = 0;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly opts: RevokedSessionsOptions) {}

  isRevoked(sessionId: string): boolean {
    return this.ids.has(sessionId);
  }

  get size(): number {
    return this.ids.size;
  }

  async start(): Promise<void> {
    await this.reload();
    this.unlisten = await this.opts.database.listen(revocationsChannel(this.opts.database.schema), () =>
      this.refresh(),
    );
    this.timer = setInterval(() => this.refresh(), this.opts.pollIntervalMs ?? 1_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.unlisten?.();
    this.unlisten = null;
    await this.running;
  }

  /** Reloads now, or right after the reload under way (a NOTIFY during a reload must not be lost). */
  refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.reload();
        } catch (err) {
          this.opts.log.warn({ err }, 'could not reload revoked sessions; keeping the last set');
        }
      } while (this.again);
      this.running = null;
    })();
    return this.running;
  }

  private async reload(): Promise<void> {
    const full = Date.now() - this.lastFull >= FULL_RELOAD_MS;
    let query = this.opts.database.db.selectFrom('revoked_sessions').select(['session_id', 'recorded_at']);
    if (!full) query = query.where('recorded_at', '>=', new Date(this.newest - RELOAD_OVERLAP_MS));
    const rows = (await query.execute()) as { session_id: string; recorded_at: Date | string }[];
    if (full) {
      this.ids = new Set();
      this.lastFull = Date.now();
    }
    for (const row of rows) {
      this.ids.add(row.session_id);
      this.newest = Math.max(this.newest, new Date(row.recorded_at).getTime());
    }
  }
}

/** The check runService gives every token-verifying service: loaded when the app is ready, stopped when it closes. */
export function watchRevokedSessions(app: FastifyInstance, opts: RevokedSessionsOptions): RevokedSessions {
  const revoked = new RevokedSessions(opts);
  app.addHook('onReady', () => revoked.start());
  app.addHook('onClose', () => revoked.stop());
  return revoked;
}

/** Fails fast at start when a service verifies tokens but forgot to list `kitRevocationsMigration`. */
export async function assertRevocationsTable<DB>(db: Executor<DB>, service: string): Promise<void> {
  const { rows } = await sql<{
    present: boolean;
  }>`SELECT to_regclass('revoked_sessions') IS NOT NULL AS present`.execute(db);
  if (!rows[0]?.present) {
    throw new Error(
      `${service} verifies access tokens but has no revoked_sessions table: list kitRevocationsMigration last in its migrations`,
    );
  }
}
