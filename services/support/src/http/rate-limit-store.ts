import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql, type Kysely } from 'kysely';
import type { Clock } from '@ques/kit';
import type { SupportDB } from '../db/schema.js';

/**
 * A fixed-window request counter in the service's Postgres schema, so N replicas share one limit per client instead
 * of each allowing its own. One upsert per limited request; old windows are swept when a new one opens.
 */
export function postgresRateLimitStore(db: Kysely<SupportDB>, clock: Clock): FastifyRateLimitStoreCtor {
  const store: FastifyRateLimitStore = {
    incr(key, callback, timeWindow) {
      const now = clock().getTime();
      const windowStart = Math.floor(now / timeWindow) * timeWindow;
      const ttl = windowStart + timeWindow - now;
      void (async () => {
        const { rows } = await sql<{ hits: number }>`
          INSERT INTO rate_limit_windows (client_key, window_start, hits) VALUES (${key}, ${new Date(windowStart)}, 1)
          ON CONFLICT (client_key, window_start) DO UPDATE SET hits = rate_limit_windows.hits + 1
          RETURNING hits`.execute(db);
        const hits = Number(rows[0]?.hits ?? 1);
        if (hits === 1) {
          await db
            .deleteFrom('rate_limit_windows')
            .where('window_start', '<', new Date(now - Math.max(timeWindow, 3_600_000)))
            .execute();
        }
        return hits;
      })().then(
        (current) => callback(null, { current, ttl }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
    // Routes tell their counters apart by `groupId` (appended to the key), so every route can share this store.
    child: () => store,
  };
  return class {
    constructor() {
      return store;
    }
  } as unknown as FastifyRateLimitStoreCtor;
}
