import { randomUUID } from 'node:crypto';
import { notFound, recordOperatorAct, type EventMetadata, type EventStore, type OperatorActor } from '@ques/kit';
import type { IdentityDB } from '../db/schema.js';
import type { Sessions } from '../sessions/sessions.js';
import type { UserCommands } from '../users/commands.js';
import type { UserRow, UsersReadModel } from '../users/read-models/users.js';

/**
 * Platform operators (issue 18, ADR 0031). The flag is an event on the user's stream (`OperatorGranted` /
 * `OperatorRevoked`), granted only from the server side: the identity CLI (`grant-operator`, both run modes), the
 * `OPERATOR_EMAILS` setting for an account whose address is verified, never the profile form. It reaches requests as
 * the `op` claim identity signs into access tokens (checked by the kit's `requireOperator` at the BFF and in every
 * service); a revocation ends every session of the account in the same transaction, so no token outlives it.
 */
export interface OperatorParts {
  store: EventStore<IdentityDB>;
  commands: UserCommands;
  users: UsersReadModel;
  sessions: Sessions;
}

/** Who grants: an operator's claims, or a server-side tool (`cli:<os user>`, `OPERATOR_EMAILS`). */
export type Granter = OperatorActor;

export const cliGranter = (osUser: string): Granter => ({ sub: 'cli', username: `cli:${osUser}` });
export const CONFIG_GRANTER: Granter = { sub: 'config', username: 'OPERATOR_EMAILS' };

const metadataOf = (by: Granter): EventMetadata => ({ correlationId: `operators-${randomUUID()}`, causationId: null, actor: by.sub });

export class Operators {
  constructor(private readonly parts: OperatorParts) {}

  /** The account named by an e-mail address or a username. */
  async find(who: { email?: string; username?: string }): Promise<UserRow> {
    const row = who.email ? await this.parts.users.byEmail(who.email) : who.username ? await this.parts.users.byUsername(who.username) : undefined;
    if (!row) throw notFound(`No account with ${who.email ? `e-mail ${who.email}` : `username ${who.username ?? ''}`}`);
    return row;
  }

  /** Makes the account an operator (idempotent); its next access token (login or refresh) carries the claim. */
  async grant(userId: string, by: Granter, metadata: EventMetadata = metadataOf(by)): Promise<boolean> {
    const { commands, store } = this.parts;
    const result = await commands.handle(userId, { type: 'GrantOperator', data: { by: by.username, now: new Date() } }, metadata, {
      alongside: async (trx, { events, state }) => {
        if (events.length === 0 || state.status !== 'active') return;
        await recordOperatorAct(store, trx, by, { action: 'operator.grant', subject: `user:${userId}`, summary: `Made @${state.profile.username} an operator` }, metadata);
      },
    });
    return result.events.length > 0;
  }

  /** Takes the role away (idempotent) and ends every session of the account in the same transaction. */
  async revoke(userId: string, by: Granter, metadata: EventMetadata = metadataOf(by)): Promise<boolean> {
    const { commands, store, sessions } = this.parts;
    const result = await commands.handle(userId, { type: 'RevokeOperator', data: { by: by.username, now: new Date() } }, metadata, {
      alongside: async (trx, { events, state }) => {
        if (events.length === 0 || state.status !== 'active') return;
        await sessions.revokeAllForUser(userId, 'operator revoked', { correlationId: metadata.correlationId, trx });
        await recordOperatorAct(store, trx, by, { action: 'operator.revoke', subject: `user:${userId}`, summary: `Removed the operator role of @${state.profile.username}` }, metadata);
      },
    });
    return result.events.length > 0;
  }

  list(): Promise<UserRow[]> {
    return this.parts.users.operators();
  }
}

/** `OPERATOR_EMAILS`: comma- or space-separated addresses, lower-cased. */
export const parseOperatorEmails = (value: string | undefined): Set<string> =>
  new Set((value ?? '').split(/[\s,]+/).map((e) => e.trim().toLowerCase()).filter(Boolean));

/**
 * The `OPERATOR_EMAILS` rule, applied whenever identity is about to sign a token: an account whose *verified*
 * address is listed becomes an operator (once; recorded like any grant). Returns the row as the token should see it.
 */
export async function withConfiguredOperator(operators: Operators | null, emails: ReadonlySet<string>, row: UserRow): Promise<UserRow> {
  if (!operators || row.operator || !row.email_verified || !emails.has(row.email.toLowerCase())) return row;
  await operators.grant(row.id, CONFIG_GRANTER);
  return { ...row, operator: true };
}
