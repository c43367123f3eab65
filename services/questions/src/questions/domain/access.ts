import { refuseAccess } from '@ques/kit/domain';
import { QUESTION_NOT_FOUND } from '@ques/contracts';
import { isInvisible, type Asker, type QuestionFacts, type QuestionState, type Recipient } from './question.js';

/*
 * Who may see a question and who may act on it: one rule for the read model's rows (what a GET answers) and for the
 * aggregate (what a command may do). Pure.
 */

/**
 * The person acting: their account, and their e-mail only once identity verified it — a guest question asked with
 * an address belongs to the account that proved it owns that address (issue 12), never to one that merely typed it.
 */
export interface Actor {
  userId: string;
  verifiedEmail: string | null;
}

/** What the rule reads of a question: the aggregate's state, or a read-model row mapped to it. */
export type QuestionParties = Pick<QuestionFacts, 'status' | 'displayOnProfile' | 'deletedByReceiver' | 'askerPrivate'> & {
  recipient: Pick<Recipient, 'userId'>;
  /** null for curated Q&A (the owner wrote both sides). */
  asker: Pick<Asker, 'userId' | 'email'> | null;
};

type Seen = QuestionParties | QuestionState;

const existing = (q: Seen): QuestionParties | null => (q.status === 'none' ? null : q);

/**
 * Anyone may read it: answered, shown on the profile, not deleted (spec §5 "Lists", public profile) — and the asker
 * did not choose "Private" (issue 14): then it is never public, whatever the owner toggles.
 */
export function isPublic(q: Seen): boolean {
  const s = existing(q);
  return !!s && s.status === 'answered' && s.displayOnProfile && !s.deletedByReceiver && !s.askerPrivate;
}

/** The account that asked it, or — for a guest's question — the account whose verified e-mail it was asked with. */
export function isAsker(q: Seen, actor: Actor): boolean {
  const s = existing(q);
  if (!s?.asker) return false;
  if (s.asker.userId) return s.asker.userId === actor.userId;
  return !!actor.verifiedEmail && !!s.asker.email && s.asker.email === actor.verifiedEmail.toLowerCase();
}

export function isRecipient(q: Seen, actor: Actor): boolean {
  const s = existing(q);
  return !!s && s.recipient.userId === actor.userId;
}

export type Viewer = 'recipient' | 'asker' | 'public';

/**
 * How `actor` (null: nobody signed in) sees the question: as its recipient, as its asker, as the public — or not at
 * all (null). A question still at checkout is seen by nobody.
 */
export function viewerOf(q: Seen, actor: Actor | null): Viewer | null {
  if (isInvisible(q.status)) return null;
  if (actor && isRecipient(q, actor)) return 'recipient';
  if (actor && isAsker(q, actor)) return 'asker';
  if (isPublic(q)) return 'public';
  return null;
}

/** The question as `actor` sees it, or the 404 a stranger gets (they cannot tell it from one that does not exist). */
export function requireViewer(q: Seen, actor: Actor | null): Viewer {
  const viewer = viewerOf(q, actor);
  if (!viewer) refuseAccess(false, { forbidden: QUESTION_NOT_FOUND, notFound: QUESTION_NOT_FOUND });
  return viewer;
}

/**
 * The access rule for an action only one party may take: allowed → nothing; someone who can see the question → 403
 * with `forbidden`; anyone else → 404 (`requireAccess` from the kit).
 */
export const accessMessages = (forbidden: string) => ({ forbidden, notFound: QUESTION_NOT_FOUND });
