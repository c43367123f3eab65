import { centsToDollars, type PublicQuestion, type Question, type QuestionStatus } from '@ques/contracts';
import type { PublicQuestionRow, QuestionRow } from '../db/schema.js';
import { requireViewer, type Actor, type QuestionParties, type Viewer } from './domain/access.js';
import type { Lifecycle } from './domain/question.js';

/*
 * A read-model row as the /api returns it (`ZQuestion` / `ZPublicQuestion` in contracts): the public view, or the
 * full record for one of its two parties. The only place a row's cents become the spec's dollars.
 */

const STATUS: Record<Lifecycle, QuestionStatus> = {
  awaiting_payment: 'Awaiting payment',
  pending: 'Pending',
  answered: 'Answered',
  withdrawn: 'Withdrawn',
  // Never shown: such a question has no row (and nobody may see it).
  checkout_expired: 'Awaiting payment',
};
const iso = (d: Date | string | null) => (d === null ? null : (d instanceof Date ? d : new Date(d)).toISOString());

/** What anyone may see (public page, answered-question page): no e-mails, no asker, no money. */
export function toPublicQuestion(row: PublicQuestionRow): PublicQuestion {
  return {
    _id: row.id,
    id: row.id,
    // Redaction (issue 14): the public sees the owner's public wording, never the original.
    question: row.public_question ?? row.question,
    detail: row.public_question !== null ? (row.public_detail ?? '') : row.detail,
    answer: row.answer ?? '',
    source: row.source,
    tags: row.tags,
    status: STATUS[row.lifecycle],
    isCurated: row.is_curated,
    displayOnProfile: row.display_on_profile,
    deletedByReceiver: row.deleted_by_receiver,
    toUsername: row.to_username,
    recipientName: row.recipient_name,
    replierName: row.replier_name ?? row.recipient_name,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
    answeredAt: iso(row.answered_at),
  };
}

/**
 * The full record for one of its two parties. The asker never sees the recipient's e-mail.
 *
 * The public view's object extended in place: spreading it into a new literal (with the public wording spread in
 * conditionally) cost ~45 µs a row, most of the questions service's CPU on a 50-row inbox page (ADR 0037).
 */
export function toQuestion(row: QuestionRow, viewer: 'recipient' | 'asker'): Question {
  const q = toPublicQuestion(row) as Question;
  // Its parties read the original, and the public wording when there is one (below).
  q.question = row.question;
  q.detail = row.detail;
  q.toUserId = row.to_user_id;
  q.fromUsername = row.from_username;
  q.askedName = row.asked_name;
  q.askedEmail = row.asked_email ?? '';
  q.yourName = row.asked_name;
  q.yourEmail = row.asked_email ?? '';
  q.tip = centsToDollars(row.tip_amount);
  q.tipAmount = row.tip_amount;
  q.currency = row.currency;
  q.tipStatus = row.tip_status;
  q.answerDeadline = iso(row.answer_deadline);
  q.answerWindowExpired = row.answer_window_expired;
  q.isPrivate = row.asker_private;
  if (row.public_question !== null) {
    q.publicQuestion = row.public_question;
    q.publicDetail = row.public_detail ?? '';
  }
  if (viewer === 'recipient') q.toUserEmail = row.to_user_email;
  // Issue 18: the owner sees why Ques hid the answer.
  if (viewer === 'recipient' && row.hidden_reason !== null)
    q.hiddenByOperator = { reason: row.hidden_reason, hiddenAt: iso(row.hidden_at ?? row.updated_at)! };
  return q;
}

/** A row as the access rule reads it (the same rule the aggregate's commands obey). */
export function partiesOf(row: QuestionRow): QuestionParties {
  return {
    status: row.lifecycle,
    displayOnProfile: row.display_on_profile,
    deletedByReceiver: row.deleted_by_receiver,
    askerPrivate: row.asker_private,
    recipient: { userId: row.to_user_id },
    asker: row.is_curated ? null : { userId: row.asker_user_id, email: row.asked_email },
  };
}

export function render(row: QuestionRow, viewer: Viewer): Question | PublicQuestion {
  return viewer === 'public' ? toPublicQuestion(row) : toQuestion(row, viewer);
}

/** `GET /api/questions/:id`: the view `actor` (null: nobody signed in) is entitled to, or 404. */
export function viewFor(row: QuestionRow, actor: Actor | null): Question | PublicQuestion {
  return render(row, requireViewer(partiesOf(row), actor));
}

/** A row of one of the caller's own lists: they received it, or they asked it. */
export const ownView = (row: QuestionRow, userId: string): Question =>
  toQuestion(row, row.to_user_id === userId ? 'recipient' : 'asker');
