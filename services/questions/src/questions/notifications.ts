import { ANSWER_WINDOW_DAYS, questionSlug } from '@ques/contracts';
import type { MailMessage } from '@ques/kit';
import type { Recipient, Submission, Tip } from './domain/question.js';

const money = (tip: Tip) =>
  `${tip.currency === 'usd' ? '$' : `${tip.currency.toUpperCase()} `}${(tip.amount / 100).toFixed(2)}`;
const quote = (text: string) =>
  text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');

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

/** To the owner when a question arrives: who asked, what, the tip and its deadline, and the inbox link. */
export function newQuestionMail(
  input: Submission & { origin: string; tip: Tip | null; answerDeadline: string | null },
): MailMessage {
  const { origin, recipient, asker, question, detail, tip, answerDeadline } = input;
  const lines = [
    `Hi ${recipient.name},`,
    '',
    `${asker.name} asked you a question on Ques:`,
    '',
    quote(question),
    ...(detail ? ['', quote(detail)] : []),
    '',
  ];
  if (tip && answerDeadline) {
    lines.push(
      `They added a tip of ${money(tip)}. It is held on their card and charged only when you answer. ` +
        `If the question is still unanswered after ${ANSWER_WINDOW_DAYS} days (${new Date(answerDeadline).toUTCString()}), the tip is released.`,
      '',
    );
  }
  lines.push(`Answer it here: ${origin}/admin`, '', '— Ques');
  return {
    to: recipient.email,
    subject: tip
      ? `New question with a ${money(tip)} tip from ${asker.name}`
      : `New question from ${asker.name}`,
    text: lines.join('\n'),
    messageId: `<question-asked.${input.questionId}@ques>`,
  };
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
}): MailMessage {
  const { origin, recipient, askerName, question, answer, isPublic } = input;
  const link = isPublic
    ? answerPageUrl(origin, recipient.username, input.questionId, question)
    : (input.statusUrl ?? `${origin}/admin/questions-asked`);
  return {
    to: input.to,
    subject: `${recipient.name} answered your question`,
    text: [
      `Hi ${askerName},`,
      '',
      `${recipient.name} answered your question:`,
      '',
      quote(question),
      '',
      'Answer:',
      '',
      quote(answer),
      '',
      `${isPublic ? 'See it on their page' : 'See it in your questions'}: ${link}`,
      '',
      '— Ques',
    ].join('\n'),
    messageId: `<answer-posted.${input.questionId}@ques>`,
  };
}

/**
 * To a guest right after they asked (issue 14): the link to the question's private status page. Nothing the asker
 * typed — only the owner's name, the status and the link — so an address typed by someone else receives nothing an
 * attacker composed. Opening the link confirms the address.
 */
export function statusLinkMail(input: {
  questionId: string;
  to: string;
  recipient: Recipient;
  statusUrl: string;
  tipped: boolean;
}): MailMessage {
  const { recipient, statusUrl } = input;
  return {
    to: input.to,
    subject: `Your question to ${recipient.name} on Ques`,
    text: [
      'Hello,',
      '',
      `A question to ${recipient.name} was asked on Ques with this e-mail address. Status: Pending.`,
      '',
      `Follow it, ${input.tipped ? 'see when the held tip is released, ' : ''}or withdraw it, on its private page:`,
      statusUrl,
      '',
      'Opening the link confirms this address: the answer is e-mailed only to a confirmed address.',
      'If you did not ask a question on Ques, ignore this e-mail.',
      '',
      '— Ques',
    ].join('\n'),
    messageId: `<status-link.${input.questionId}@ques>`,
  };
}
