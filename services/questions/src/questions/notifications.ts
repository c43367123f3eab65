import { ANSWER_WINDOW_DAYS, feeBreakdown, formatCents, questionSlug } from '@ques/contracts';
import { letterMail, utcDateTime, type Brand, type Fact, type MailMessage } from '@ques/kit';
import type { Recipient, Submission, Tip } from './domain/question.js';

/*
 * Questions' e-mails, each one letter (ADR 0053): the HTML part in the owner's colours and the text part come from
 * the same content. Subjects and Message-IDs are stable (a retried job, or a client threading by id, sees the same).
 */

const money = (tip: Pick<Tip, 'amount' | 'currency'>) => formatCents(tip.amount, tip.currency);

/** The public page of an answered question (spec §2: /ask/{username}/question/{id}/{slug}). */
export function answerPageUrl(
  origin: string,
  username: string,
  questionId: string,
  question: string,
): string {
  const slug = questionSlug(question);
  return `${origin}/ask/${encodeURIComponent(username)}/question/${questionId}${slug ? `/${slug}` : ''}`;
}

/** "Mira receives $4.50 · Ques keeps $0.50 (10 %)": the split of a held tip, if it is charged. */
function feeSplit(ownerName: string, tip: Pick<Tip, 'amount' | 'currency'>): string {
  const b = feeBreakdown(tip.amount);
  return `${ownerName} receives ${formatCents(b.ownerCents, tip.currency)} · Ques keeps ${formatCents(b.feeCents, tip.currency)} (${b.feePercent} %)`;
}

/** To the owner when a question arrives: who asked, what, the tip and its deadline, and the inbox link. */
export function newQuestionMail(
  input: Submission & { origin: string; tip: Tip | null; answerDeadline: string | null; brand?: Brand },
): MailMessage {
  const { origin, recipient, asker, question, detail, tip, answerDeadline } = input;
  const held = tip && answerDeadline;
  const facts: Fact[] = [{ label: 'From', value: asker.name }];
  if (held) {
    facts.push(
      { label: 'Tip held', value: money(tip) },
      { label: 'You receive', value: `${formatCents(feeBreakdown(tip.amount).ownerCents, tip.currency)} when you answer` },
      { label: 'Released if unanswered by', value: utcDateTime(answerDeadline) },
    );
  }
  return letterMail(
    {
      to: recipient.email,
      subject: tip ? `New question with a ${money(tip)} tip from ${asker.name}` : `New question from ${asker.name}`,
      messageId: `<question-asked.${input.questionId}@ques>`,
    },
    {
      preview: held ? `${money(tip)} held — answer within ${ANSWER_WINDOW_DAYS} days` : `${asker.name} asked you a question`,
      brand: input.brand ?? null,
      greeting: `Hi ${recipient.name},`,
      heading: held ? `${asker.name} asked you a question with a ${money(tip)} tip` : `${asker.name} asked you a question`,
      facts,
      body: [
        { label: 'The question', quote: question },
        ...(detail ? [{ quote: detail }] : []),
        ...(held
          ? [
              `The tip is held on their card and charged only when you answer. If the question is still unanswered after ${ANSWER_WINDOW_DAYS} days, the tip is released.`,
            ]
          : []),
      ],
      action: { label: 'Answer it', url: `${origin}/admin` },
      footer: `You received this because someone asked you a question on your Ques page.`,
    },
  );
}

/** To the asker when their question is answered (never for edits). */
export function answerPostedMail(input: {
  origin: string;
  questionId: string;
  recipient: Recipient;
  askerName: string;
  to: string;
  question: string;
  answer: string;
  /** The answer shows on the public page: link there; otherwise to the asker's list. */
  isPublic: boolean;
  /** A guest's private status page (issue 14): the link when the answer is not public. */
  statusUrl?: string | null;
  brand?: Brand;
}): MailMessage {
  const { origin, recipient, askerName, question, answer, isPublic } = input;
  const link = isPublic
    ? answerPageUrl(origin, recipient.username, input.questionId, question)
    : (input.statusUrl ?? `${origin}/admin/questions-asked`);
  return letterMail(
    { to: input.to, subject: `${recipient.name} answered your question`, messageId: `<answer-posted.${input.questionId}@ques>` },
    {
      preview: `${recipient.name} answered: ${answer.slice(0, 90)}`,
      brand: input.brand ?? null,
      greeting: `Hi ${askerName},`,
      heading: `${recipient.name} answered your question`,
      body: [
        { label: 'You asked', quote: question },
        { label: 'Answer', quote: answer },
      ],
      action: { label: isPublic ? 'See it on their page' : 'See it in your questions', url: link },
      footer: 'You received this because you asked this question on Ques.',
    },
  );
}

export interface ReceiptInput {
  questionId: string;
  to: string;
  recipient: Pick<Recipient, 'name'>;
  brand?: Brand;
  /** The question's private status page; null: none was made (then the signed-in asker's list). */
  statusUrl: string | null;
  origin: string;
  question: string;
  tip: Pick<Tip, 'amount' | 'currency'> | null;
  answerDeadline: string | null;
  /** A guest (the address was typed, and is not proven until the link is opened). */
  guest: boolean;
}

/**
 * Whether the receipt may quote the question's title (ADR 0053). A guest's address was typed by whoever asked, so a
 * free guest question's mail holds nothing the asker wrote: otherwise anyone could mail composed text to any address
 * through us. A tipped question's asker had a card authorised (the payment is traceable to them), and a signed-in
 * asker's address is their own, proven one: both see their title.
 */
export const receiptShowsTitle = (input: Pick<ReceiptInput, 'guest' | 'tip'>) => !input.guest || input.tip !== null;

/**
 * Right after a question is asked (a tipped one: once the hold is recorded), to the asker: a receipt — to whom, the
 * amount held and its split, when it is released, what happens next — with the status link as the button.
 */
export function receiptMail(input: ReceiptInput): MailMessage {
  const { recipient, tip, answerDeadline } = input;
  const name = recipient.name;
  const facts: Fact[] = [];
  if (receiptShowsTitle(input)) facts.push({ label: 'Question', value: input.question });
  facts.push({ label: 'To', value: name }, { label: 'Status', value: 'Pending' });
  if (tip) {
    facts.push({ label: 'Amount held', value: money(tip) }, { label: 'Fee split', value: feeSplit(name, tip) });
    if (answerDeadline) facts.push({ label: 'Released if unanswered by', value: utcDateTime(answerDeadline) });
  }
  const next = tip
    ? `Your card is held, not charged. When ${name} answers, ${money(tip)} is charged and the answer comes to you. ` +
      `If ${name} does not answer within ${ANSWER_WINDOW_DAYS} days, the hold is released and nothing is charged. ` +
      'You can withdraw the question until it is answered: the hold is released at once.'
    : `${name} decides whether to answer. When they do, the answer comes to you. You can withdraw the question until it is answered.`;
  const url = input.statusUrl ?? `${input.origin}/admin/questions-asked`;
  return letterMail(
    { to: input.to, subject: `Your question to ${name} on Ques`, messageId: `<status-link.${input.questionId}@ques>` },
    {
      preview: tip ? `${money(tip)} held, charged only if ${name} answers` : `Your question to ${name} is waiting for an answer`,
      brand: input.brand ?? null,
      greeting: 'Hello,',
      heading: input.guest && !tip ? `A question to ${name} was asked on Ques with this e-mail address` : `Your question to ${name} is on its way`,
      facts,
      body: [`What happens next: ${next}`],
      action: { label: 'Follow your question', url },
      after: input.guest
        ? [
            'Opening the link confirms this address: the answer is e-mailed only to a confirmed address.',
            'If you did not ask a question on Ques, ignore this e-mail.',
          ]
        : [],
      footer: input.guest
        ? 'You received this because this address was given when a question was asked on Ques.'
        : 'You received this because you asked a question on Ques.',
    },
  );
}
