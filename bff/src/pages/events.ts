import type { FastifyInstance } from 'fastify';
import type { EventEnvelope } from '@ques/contracts';
import { requireUser, type EventBus, type Subscription } from '@ques/kit';

/** What a public change drops: the page cache (SeoRenderer) and, with it, the sitemap, share images and feeds. */
export interface PublicCaches {
  evict(tags: readonly string[], options?: { profiles?: boolean }): void;
}

/*
 * Keeping the rendered public pages current (docs/adr/0024; issue 12 defect 6): a page is dropped from the cache as
 * soon as what it shows changes, not when its time to live runs out. Two sources, both only hints (the time to live
 * stays the safety net):
 * - the bus: an ephemeral watch (kit `EventBus.watch`: core NATS in the distributed topology, the in-process bus in
 *   the embedded one) of identity's and questions' events, so every BFF instance hears of every change, whoever
 *   made it (another instance, a deadline, an admin script);
 * - this BFF's own writes: a signed-in person's successful write through `/api` drops their pages before the
 *   response leaves, so the next page they (or anyone) load shows it — even before the event is relayed.
 */

export const WATCHED_SUBJECTS = ['ques.identity.>', 'ques.questions.>'] as const;

export interface Eviction {
  tags: string[];
  /** Every profile page too (a question became visible: no cached page names it yet). */
  profiles: boolean;
}

const text = (value: unknown) => (typeof value === 'string' && value ? [value] : []);

/** The pages an event may change, by the ids and names it carries. Pure. */
export function evictionFor(envelope: EventEnvelope, subject: string): Eviction | null {
  const data = (envelope.data ?? {}) as Record<string, unknown>;
  if (subject.startsWith('ques.identity.')) {
    // Sessions and passwords change nothing a page shows.
    if (envelope.type === 'SessionsRevoked' || envelope.type === 'PasswordChanged') return null;
    const tags = [...text(data.userId), ...text(data.username)];
    return tags.length ? { tags, profiles: false } : null;
  }
  if (subject.startsWith('ques.questions.')) {
    const tags = [...text(data.questionId), ...text(data.recipientUserId), ...text(data.recipientUsername)];
    // Made visible: the owner's profile lists it now, and this event names no owner.
    const profiles = envelope.type === 'QuestionVisibilityChanged' && data.displayOnProfile === true;
    return tags.length || profiles ? { tags, profiles } : null;
  }
  return null;
}

/** Watches the bus for changes of public pages; the subscription ends with the BFF. */
export async function watchPublicChanges(app: FastifyInstance, bus: EventBus, seo: PublicCaches): Promise<Subscription> {
  const watch = await bus.watch({
    subjects: [...WATCHED_SUBJECTS],
    handler: (envelope, subject) => {
      const eviction = evictionFor(envelope, subject);
      if (eviction) seo.evict(eviction.tags, { profiles: eviction.profiles });
    },
  });
  app.addHook('onClose', async () => watch.stop());
  return watch;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A signed-in person's successful write through the BFF drops the pages that show them (see above). */
export function evictOnOwnWrites(app: FastifyInstance, seo: PublicCaches): void {
  // Reads (nearly every response) pass straight on: no promise made for them.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!WRITES.has(request.method) || reply.statusCode >= 400 || !request.url.startsWith('/api/') || !request.headers.authorization)
      return done(null, payload);
    requireUser(request)
      .catch(() => null)
      .then((claims) => {
        // A token may carry no username (a service's, an old one): only the tags it has.
        if (claims) seo.evict([claims.sub, claims.username].filter((t): t is string => typeof t === 'string'));
        done(null, payload);
      }, done);
  });
}
