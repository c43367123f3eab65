import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterCommit } from './commit-hooks.js';

/**
 * This process's NOTIFY payload on the wake-up channels (the outbox's, the scheduler's): a listener that hears it has
 * been woken by the commit itself already (`wakeAtCommit`) and need not run again for it (ADR 0046).
 */
export const commitOrigin = randomUUID();

const wakers = new Map<string, Set<() => void>>();

/**
 * Calls `listener` right after every commit of this process that NOTIFYs `channel` with `wakeAtCommit`: as soon as
 * its COMMIT returns, without waiting for Postgres to pass the notification through a listening backend and back.
 * The returned function stops.
 */
export function onCommitWake(channel: string, listener: () => void): () => void {
  let set = wakers.get(channel);
  if (!set) wakers.set(channel, (set = new Set()));
  // Runs in the listener's own async context, not the committing caller's: what a woken scheduler sends is its own
  // work, not the caller's (`statementsOf` counts only the caller's).
  const bound = AsyncResource.bind(listener);
  set.add(bound);
  return () => {
    set.delete(bound);
    if (set.size === 0 && wakers.get(channel) === set) wakers.delete(channel);
  };
}

/**
 * Inside a transaction whose statement NOTIFYs `channel` with `commitOrigin` as its payload: this process's listeners
 * of `channel` (`onCommitWake`) run once it commits, never if it rolls back. Other processes still hear the NOTIFY;
 * this process's LISTEN ignores its own payload (see `fromOtherProcess`), so nothing runs twice for one commit.
 */
export async function wakeAtCommit(trx: Kysely<any>, channel: string): Promise<void> {
  if (!wakers.has(channel)) return;
  await afterCommit(trx, () => {
    for (const listener of wakers.get(channel) ?? []) listener();
  });
}

/**
 * A NOTIFY handler for a wake-up channel that leaves out this process's own commits (they woke it at commit): it calls
 * `wake` for another process's notification and for a (re)connected listener (`payload` undefined: some may have
 * been missed).
 */
export function fromOtherProcess(wake: () => void): (payload?: string) => void {
  return (payload) => {
    if (payload !== commitOrigin) wake();
  };
}
