import { ANSWER_WINDOW_MS } from '@ques/contracts';
import { letterMail, utcDateTime, type Brand, type Letter } from '@ques/kit/domain';

/*
 * Nudges (issue 16): reminders to the owner that a tip is held and will be released unless they answer. Pure: the
 * marks, and the mail's words.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** After authorization (the question is asked): 24 h, 72 h and 4 days. The window itself is 5 days. */
export const NUDGE_MARKS = [
  { mark: '24h', afterMs: 24 * HOUR_MS },
  { mark: '72h', afterMs: 72 * HOUR_MS },
  { mark: '4d', afterMs: 4 * DAY_MS },
] as const;
export type NudgeMark = (typeof NUDGE_MARKS)[number]['mark'];

/** When each nudge of a question whose answer window ends at `deadline` is due. */
export function nudgeTimes(deadline: Date): { mark: NudgeMark; dueAt: Date }[] {
  const askedAt = deadline.getTime() - ANSWER_WINDOW_MS;
  return NUDGE_MARKS.map(({ mark, afterMs }) => ({ mark, dueAt: new Date(askedAt + afterMs) }));
}

export interface HeldTip {
  questionId: string;
  question: string;
  askerName: string;
  amountCents: number;
  currency: string;
  deadline: Date;
}

export const formatMoney = (cents: number, currency: string) =>
  `${currency === 'usd' ? '$' : `${currency.toUpperCase()} `}${(cents / 100).toFixed(2)}`;

/** "in 1 day", "in 2 days", "in 5 hours" (rounded up: the owner has at most this long). */
export function releasedIn(deadline: Date, now: Date): string {
  const left = Math.max(0, deadline.getTime() - now.getTime());
  if (left >= DAY_MS - HOUR_MS) {
    const days = Math.max(1, Math.round(left / DAY_MS));
    return `in ${days} day${days === 1 ? '' : 's'}`;
  }
  const hours = Math.max(1, Math.ceil(left / HOUR_MS));
  return `in ${hours} hour${hours === 1 ? '' : 's'}`;
}

/** One mail for what is due now: a single reminder, or a digest when several tips are due at once. */
export function nudgeMail(input: {
  ownerName: string;
  to: string;
  tips: HeldTip[];
  now: Date;
  /** Where the owner answers this question (the inbox opens its answer form). */
  answerUrl: (questionId: string) => string;
  settingsUrl: string;
  /** Stable per send (the Message-ID). */
  id: string;
  /** The owner's colours (the mail is about their page). */
  brand?: Brand;
}): { to: string; subject: string; text: string; messageId: string; letter: Letter } {
  const { tips, now } = input;
  const sorted = [...tips].sort((a, b) => a.deadline.getTime() - b.deadline.getTime());
  const head = { to: input.to, messageId: `<nudge.${input.id}@ques>` };
  const common = {
    brand: input.brand ?? null,
    greeting: `Hi ${input.ownerName},`,
    after: [`Turn these reminders off in Account Settings: ${input.settingsUrl}`],
    footer: 'You received this because a tip is held for a question on your Ques page.',
  };
  if (sorted.length === 1) {
    const t = sorted[0]!;
    const amount = formatMoney(t.amountCents, t.currency);
    return letterMail(
      { ...head, subject: `${amount} held for you — released ${releasedIn(t.deadline, now)} unless you answer` },
      {
        ...common,
        preview: `${t.askerName} is waiting for your answer`,
        heading: `${amount} is held for you until ${utcDateTime(t.deadline)}`,
        facts: [
          { label: 'From', value: t.askerName },
          { label: 'Tip held', value: amount },
          { label: 'Released if unanswered by', value: utcDateTime(t.deadline) },
        ],
        body: [
          { label: `${t.askerName} asked you:`, quote: t.question },
          `Their tip of ${amount} is held on their card. It is released ${releasedIn(t.deadline, now)} unless you answer; answering charges it.`,
        ],
        action: { label: 'Answer it here', url: input.answerUrl(t.questionId) },
      },
    );
  }
  const currencies = new Set(sorted.map((t) => t.currency));
  const total =
    currencies.size === 1 ? ` (${formatMoney(sorted.reduce((sum, t) => sum + t.amountCents, 0), sorted[0]!.currency)})` : '';
  return letterMail(
    { ...head, subject: `${sorted.length} tips${total} held for you — answer before they are released` },
    {
      ...common,
      preview: `${sorted.length} questions with tips are waiting for your answer`,
      heading: `${sorted.length} tips${total} are held for you`,
      body: [
        `${sorted.length} questions with tips are waiting for your answer. Each tip is held on the asker's card and released unless you answer:`,
        ...sorted.map((t) => ({
          item: `${formatMoney(t.amountCents, t.currency)} from ${t.askerName}: "${t.question}" — released ${releasedIn(t.deadline, now)} (${utcDateTime(t.deadline)})`,
          link: { label: 'Answer it here', url: input.answerUrl(t.questionId) },
        })),
      ],
      action: { label: 'Open your questions', url: input.answerUrl(sorted[0]!.questionId).replace(/\?.*$/, '') },
    },
  );
}
