/*
 * The limits and spec §5 messages of the question forms (ask, curate, answer, tags), shared by the server's rules and
 * the web app's forms. Re-exported by `../questions.ts` and by `@ques/contracts/core`.
 */

export const QUESTION_LIMITS = {
  question: 300,
  detail: 5000,
  answer: 20_000,
  source: 1000,
  tag: 40,
  tags: 20,
  name: 80,
  email: 254,
  replierName: 80,
  /** Largest tip accepted, in dollars. */
  tipMaxDollars: 10_000,
} as const;

/** Spec §5, ask modal, in the order they are checked. */
export const ASK_MESSAGES = {
  titleRequired: 'Question title is required',
  mustAgree: 'You must agree to the Terms of Use and Privacy Policy before posting.',
  nameAndEmail: 'Name and Email are required',
  recipientMissing: 'Recipient user data is missing. Please try again later.',
  recipientEmailMissing: 'Recipient email is missing',
  selectTip: 'Select a tip amount to proceed',
  penny: "Your tip can't be a penny, please start with at least one buck.",
  // Server-side rules the spec's client does not show:
  invalidEmail: 'Please enter a valid email address',
  archiveProfile: 'This profile is a curated archive and does not take questions.',
  tipNeedsCheckout: 'A question with a tip is posted through checkout.',
  tipTooLarge: `Tips can be at most $${/* @__PURE__ */ QUESTION_LIMITS.tipMaxDollars.toLocaleString('en-US')}.`,
} as const;

/** Spec §5, curate form (note the full stops: the spec's wording differs from the ask modal). */
export const CURATE_MESSAGES = {
  titleRequired: 'Question title is required.',
  answerRequired: 'Answer is required.',
  noTip: 'Curated questions have no tip.',
} as const;

/** Spec §5, answer modal. */
export const ANSWER_MESSAGES = {
  answerRequired: 'Answer is required',
  invalidQuestionId: 'Invalid question ID',
} as const;

export const TAG_MESSAGES = {
  notAList: 'Tags must be a list of words',
  tooLong: `Tags must be at most ${QUESTION_LIMITS.tag} characters`,
  tooMany: `At most ${QUESTION_LIMITS.tags} tags`,
} as const;
