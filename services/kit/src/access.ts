import { forbidden, notFound } from './errors.js';

/**
 * The one access rule for a resource that names people (a question, a tip): someone who may see it — a party to it,
 * or anyone when it is public — but may not do this gets a 403 with the reason; anyone else gets the same 404 as for a
 * resource that does not exist, so a stranger cannot even learn that it exists.
 */
export function refuseAccess(canSee: boolean, messages: { forbidden: string; notFound: string }): never {
  if (canSee) throw forbidden(messages.forbidden);
  throw notFound(messages.notFound);
}

/** Allows the action, or refuses it by {@link refuseAccess}. */
export function requireAccess(
  allowed: boolean,
  canSee: boolean,
  messages: { forbidden: string; notFound: string },
): void {
  if (!allowed) refuseAccess(canSee, messages);
}
