import { ASK_MESSAGES, GUEST_USERNAME, OPS_MESSAGES, QUESTION_MESSAGES, type AskDraft } from '@ques/contracts';
import { badRequest, notFound, unprocessable, type AccessClaims } from '@ques/kit';
import type { RecipientRow, RecipientsReadModel } from '../recipients/recipients.js';
import type { Actor } from './domain/access.js';
import type { Asker, Recipient } from './domain/question.js';

const toRecipient = (row: RecipientRow): Recipient => ({
  userId: row.user_id,
  username: row.username,
  name: row.name,
  email: row.email,
});

/**
 * Who the people of a question are, resolved from the token and questions' copy of identity's users — never from
 * the request body: the actor of a command, a signed-in or guest asker, the recipient of a new question, the owner
 * curating their own Q&A.
 */
export class Parties {
  constructor(private readonly recipients: RecipientsReadModel) {}

  /** The caller as the access rule sees them: their account, and their e-mail only once identity verified it. */
  async actor(claims: AccessClaims): Promise<Actor> {
    const me = await this.recipients.byId(claims.sub);
    return { userId: claims.sub, verifiedEmail: me?.email_verified && me.email ? me.email : null };
  }

  /** A signed-in asker: name and e-mail from the local copy of their account (the token's username until it arrives). */
  async signedInAsker(claims: AccessClaims): Promise<Asker> {
    return Parties.signedInAskerOf(claims, await this.recipients.byId(claims.sub));
  }

  /** The same from their account's row already read (or none yet). */
  static signedInAskerOf(claims: AccessClaims, me: RecipientRow | null | undefined): Asker {
    return {
      userId: claims.sub,
      username: claims.username,
      name: me?.name ?? claims.username,
      email: me?.email ?? null,
    };
  }

  /** The asker payments names (it verified their token): they must be known here already. */
  async knownAsker(userId: string): Promise<Asker> {
    const me = await this.recipients.byId(userId);
    if (!me) throw unprocessable(QUESTION_MESSAGES.unknownAsker);
    return { userId: me.user_id, username: me.username, name: me.name, email: me.email };
  }

  /** A guest: the name and e-mail they typed (ask rules 3–4 checked them). */
  guest(typed: NonNullable<AskDraft['guest']>): Asker {
    return { userId: null, username: GUEST_USERNAME, ...typed };
  }

  /** Spec §5 rules 4–5 on the server, plus: no questions to archive profiles. */
  async recipient(toUserId: string): Promise<Recipient> {
    return Parties.recipientOf(await this.recipients.byId(toUserId));
  }

  /** The same rules on a recipient's row already read (an ask reads it with its screening facts, ADR 0042). */
  static recipientOf(row: RecipientRow | undefined): Recipient {
    if (!row) throw badRequest(ASK_MESSAGES.recipientMissing);
    if (!row.email) throw badRequest(ASK_MESSAGES.recipientEmailMissing);
    if (row.archive_profile) throw unprocessable(ASK_MESSAGES.archiveProfile);
    return toRecipient(row);
  }

  /**
   * The archive profile an operator curates for (issue 18): an account marked as an archive — an owned profile
   * curates its own Q&A (422), an unknown or deleted one is not found.
   */
  async archive(userId: string): Promise<Recipient> {
    const row = await this.recipients.byId(userId);
    if (!row) throw notFound(OPS_MESSAGES.noSuchArchive);
    if (!row.archive_profile) throw unprocessable(OPS_MESSAGES.notAnArchive);
    return toRecipient(row);
  }

  /** The owner curating their own Q&A (known from the token even before their account reaches this service). */
  async curator(claims: AccessClaims): Promise<Recipient> {
    const me = await this.recipients.byId(claims.sub);
    return me
      ? toRecipient(me)
      : { userId: claims.sub, username: claims.username, name: claims.username, email: '' };
  }
}
