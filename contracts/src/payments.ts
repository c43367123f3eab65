import { z } from 'zod';
import {
  ASK_MESSAGES,
  MIN_TIP_CENTS,
  PaymentsEventsForQuestions,
  QUESTION_LIMITS,
  type Checked,
} from './questions.js';

/*
 * The payments context: tip options (spec §3, §5, §9), payout accounts (Stripe Connect), checkout, capture/release,
 * the /api bodies of spec §7 and the integration events (ques.payments.*). The three tip events questions consumes
 * are the shapes of `PaymentsEventsForQuestions` (questions.ts), extended here with what other readers need.
 */

/** Spec §5/§9: the values a tip option may take. */
export const TIP_OPTION_VALUES = [
  '$0',
  '$1',
  '$5',
  '$10',
  '$25',
  '$50',
  '$100',
  '$250',
  '$500',
  '$1000',
  'Custom',
] as const;
export type TipOptionValue = (typeof TIP_OPTION_VALUES)[number];
export const MAX_TIP_OPTIONS = 5;

/** Spec §3 tip option: `$0` is always there and cannot be removed. */
export interface TipOption {
  id: string;
  value: TipOptionValue;
  removable: boolean;
}

/** A stable id per value (values are unique within a profile's options). */
export const tipOptionId = (value: TipOptionValue) => `tip-${value === 'Custom' ? 'custom' : value.slice(1)}`;
export const toTipOption = (value: TipOptionValue): TipOption => ({
  id: tipOptionId(value),
  value,
  removable: value !== '$0',
});

/** Spec §3/§9 defaults: $0, $5, $25, $50, Custom. */
export const DEFAULT_TIP_OPTION_VALUES: readonly TipOptionValue[] = ['$0', '$5', '$25', '$50', 'Custom'];
export const DEFAULT_TIP_OPTIONS: TipOption[] = DEFAULT_TIP_OPTION_VALUES.map(toTipOption);

/** Spec §1/§9: the platform keeps 10 % of every tip. */
export const PLATFORM_FEE_PERCENT = 10;
/** The platform's fee on `amount` cents, rounded to the cent. */
export const applicationFeeCents = (amount: number) => Math.round((amount * PLATFORM_FEE_PERCENT) / 100);
/** Spec §9: default payout country. */
export const DEFAULT_PAYOUT_COUNTRY = 'CA';

/** A payout account's onboarding state; tipping can be enabled only when it is `completed` (spec §4). */
export const PAYOUT_ACCOUNT_STATUSES = ['pending', 'restricted', 'completed'] as const;
export type PayoutAccountStatus = (typeof PAYOUT_ACCOUNT_STATUSES)[number];

/** Why a held tip was released (cancelled at the card provider, never charged). */
export const TIP_RELEASE_REASONS = [
  'withdrawn', // the asker withdrew the question
  'deleted', // the recipient deleted the question
  'expired', // unanswered for 5 days
  'account_deleted', // the recipient deleted their account
  'cancelled', // cancel-payment, or the provider cancelled the authorization
  'abandoned', // the checkout was never paid
] as const;
export type TipReleaseReason = (typeof TIP_RELEASE_REASONS)[number];

/** Where a tip stands, as payments sees it. */
export type PaymentStatus = 'checkout' | 'held' | 'capturing' | 'captured' | 'releasing' | 'released';

export const PAYMENT_MESSAGES = {
  // Spec §8, payment settings.
  setUpFirst: 'Please set up your Stripe Connect account first.',
  completeFirst: 'Please complete your Stripe Connect account before enabling tipping.',
  mustBeLoggedIn: 'You must be logged in to set up your Stripe account.',
  connectFailed: 'Error connecting your Stripe account.',
  saveFailed: 'Failed to save payment options.',
  saved: 'Payment options saved successfully!',
  // Spec §8, checkout and finalize.
  checkoutFailed: 'Failed to create checkout session',
  finalizeFailed: 'Failed to finalize payment',
  // Server-side rules the spec's client does not show.
  tooManyOptions: `You can offer at most ${MAX_TIP_OPTIONS} tip options.`,
  invalidOption: `Tip options must be ${TIP_OPTION_VALUES.join(', ')}.`,
  zeroRequired: 'The $0 option is always offered and cannot be removed.',
  duplicateOption: 'Each tip amount can be offered only once.',
  tippingNotBoolean: 'tippingEnabled must be true or false',
  invalidCountry: 'Please choose a valid two-letter country code.',
  onlyOwner: 'You can only see and change your own payment settings.',
  notAcceptingTips: 'This profile is not accepting tips right now.',
  cannotReceiveTips: 'This profile cannot receive tips right now.',
  wholeDollars: 'Tips are whole dollars. Please enter an amount without cents.',
  notAnOption: 'Please choose one of the tip amounts offered.',
  questionDataMissing: 'Question details are missing. Please try again.',
  paymentNotFound: 'Payment not found',
  onlyRecipientFinalizes: 'Only the recipient of this question can finalize its payment.',
  onlyPartiesCancel: 'Only the recipient or the asker of this question can cancel its payment.',
  notPaidYet: 'This tip has not been paid yet.',
  released: 'This tip was released, never charged.',
  alreadyCaptured: 'This tip was already captured and can no longer be cancelled.',
  needsAnswer: 'A tip can only be captured after the question is answered.',
  captured: 'Payment captured.',
  capturing: 'The payment is being captured.',
  cancelled: 'Payment cancelled: the hold on the card was released, nothing was charged.',
  invalidSignature: 'Invalid webhook signature',
} as const;

// ---- requests ----

/** `PUT /api/payments/tipOptions`: `userId` is in the spec's payload but the owner is whoever the token says. */
export const ZSaveTipOptionsRequest = z.object({
  userId: z.unknown().optional(),
  tipOptions: z.array(z.unknown(), { error: PAYMENT_MESSAGES.invalidOption }),
  tippingEnabled: z.boolean({ error: PAYMENT_MESSAGES.tippingNotBoolean }),
});
export type SaveTipOptionsRequest = z.infer<typeof ZSaveTipOptionsRequest>;

/**
 * Spec §5 tip options: at most 5, from the allowed list, no duplicates, `$0` present. Accepts option objects
 * (`{ value }`, the spec's shape) or bare values; ids and `removable` are the server's.
 */
export function checkTipOptions(input: unknown[]): Checked<TipOption[]> {
  const values: TipOptionValue[] = [];
  for (const raw of input) {
    const value =
      typeof raw === 'string'
        ? raw
        : typeof raw === 'object' && raw !== null
          ? (raw as { value?: unknown }).value
          : undefined;
    if (typeof value !== 'string' || !(TIP_OPTION_VALUES as readonly string[]).includes(value)) {
      return { ok: false, message: PAYMENT_MESSAGES.invalidOption };
    }
    if (values.includes(value as TipOptionValue))
      return { ok: false, message: PAYMENT_MESSAGES.duplicateOption };
    values.push(value as TipOptionValue);
  }
  if (values.length > MAX_TIP_OPTIONS) return { ok: false, message: PAYMENT_MESSAGES.tooManyOptions };
  if (!values.includes('$0')) return { ok: false, message: PAYMENT_MESSAGES.zeroRequired };
  return { ok: true, value: values.map(toTipOption) };
}

/** `POST /api/payments/connect`: the country of the connected account (spec: from an IP lookup, fallback CA). */
export const ZConnectRequest = z.object({
  userId: z.unknown().optional(),
  country: z
    .string({ error: PAYMENT_MESSAGES.invalidCountry })
    .trim()
    .regex(/^[A-Za-z]{2}$/, PAYMENT_MESSAGES.invalidCountry)
    .transform((c) => c.toUpperCase())
    .default(DEFAULT_PAYOUT_COUNTRY),
});
export type ConnectRequest = z.infer<typeof ZConnectRequest>;

/**
 * `POST /api/checkout/create-checkout-session`: `donationAmount` in dollars, `userId` the asker (or "guest" — never
 * trusted: the token says who asks), `questionData` the spec §7 question payload (validated with the ask rules).
 * A guest's agreement to the terms may come as `agreedToTerms: true` here or inside `questionData`.
 */
export const ZCreateCheckoutSessionRequest = z.object({
  donationAmount: z.unknown(),
  userId: z.unknown().optional(),
  questionData: z.record(z.string(), z.unknown(), { error: PAYMENT_MESSAGES.questionDataMissing }),
  agreedToTerms: z.boolean().optional(),
});
export type CreateCheckoutSessionRequest = z.infer<typeof ZCreateCheckoutSessionRequest>;

/**
 * Spec §5 rules 6–7 for a checkout amount in dollars, then the owner's options: a preset they offer, or any whole
 * amount when they offer Custom. Returns cents.
 */
export function checkDonationAmount(amount: unknown, offered: readonly TipOptionValue[]): Checked<number> {
  const value =
    typeof amount === 'string' && amount.trim() !== '' ? Number(amount.trim().replace(/^\$/, '')) : amount;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    return { ok: false, message: ASK_MESSAGES.selectTip };
  if (value < 1) return { ok: false, message: ASK_MESSAGES.penny };
  if (!Number.isInteger(value)) return { ok: false, message: PAYMENT_MESSAGES.wholeDollars };
  if (value > QUESTION_LIMITS.tipMaxDollars) return { ok: false, message: ASK_MESSAGES.tipTooLarge };
  if (!offered.includes('Custom') && !offered.includes(`$${value}` as TipOptionValue))
    return { ok: false, message: PAYMENT_MESSAGES.notAnOption };
  const cents = value * 100;
  return cents >= MIN_TIP_CENTS ? { ok: true, value: cents } : { ok: false, message: ASK_MESSAGES.penny };
}

// ---- responses ----

export interface TipOptionsResponse {
  tipOptions: TipOption[];
  tippingEnabled: boolean;
}
export interface SaveTipOptionsResponse extends TipOptionsResponse {
  message: string;
}

export interface AccountStatusResponse {
  userId: string;
  /** null until the owner connects. */
  stripeAccountId: string | null;
  /** Spec §3: "a completed value matters". null without an account. */
  stripeAccountStatus: PayoutAccountStatus | null;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
}

export interface ConnectResponse {
  /** The provider's hosted onboarding page; the web app navigates to it. */
  url: string;
  stripeAccountId: string;
}

/** Spec §3 "Checkout session gives sessionId, paymentIntentId, message" — plus the hosted page's `url`. */
export interface CheckoutSessionResponse {
  sessionId: string;
  /** Stripe creates the PaymentIntent when the card is submitted: null until then. */
  paymentIntentId: string | null;
  url: string;
  questionId: string;
  message: string;
}

/** finalize-payment / cancel-payment. */
export interface PaymentActionResponse {
  message: string;
  questionId: string;
  status: PaymentStatus;
}

export interface LedgerEntry {
  questionId: string;
  /** Cents charged to the asker. */
  amount: number;
  /** Cents the platform keeps (10 %). */
  applicationFee: number;
  /** Cents the owner receives. */
  net: number;
  currency: string;
  capturedAt: string;
}
export interface EarningsResponse {
  totals: { count: number; amount: number; applicationFee: number; net: number; currency: string };
  entries: LedgerEntry[];
}

// ---- integration events (ques.payments.*) ----

const iso = z.iso.datetime({ offset: true });
const ZPayoutStatus = z.enum(PAYOUT_ACCOUNT_STATUSES);

export const PaymentsEvents = {
  PayoutAccountLinked: {
    version: 1,
    schema: z.object({
      userId: z.uuid(),
      accountId: z.string().min(1),
      country: z.string().length(2),
      linkedAt: iso,
    }),
  },
  PayoutAccountStatusChanged: {
    version: 1,
    schema: z.object({
      userId: z.uuid(),
      accountId: z.string().min(1),
      status: ZPayoutStatus,
      chargesEnabled: z.boolean(),
      payoutsEnabled: z.boolean(),
      detailsSubmitted: z.boolean(),
      changedAt: iso,
    }),
  },
  TipOptionsSaved: {
    version: 1,
    schema: z.object({
      userId: z.uuid(),
      tipOptions: z.array(z.enum(TIP_OPTION_VALUES)),
      tippingEnabled: z.boolean(),
      savedAt: iso,
    }),
  },
  /** The asker is on the hosted checkout page; the question waits, invisible, for `TipAuthorized`. */
  CheckoutStarted: {
    version: 1,
    schema: z.object({
      questionId: z.uuid(),
      recipientUserId: z.uuid(),
      askerUserId: z.uuid().nullable(),
      paymentRef: z.string().min(1),
      amount: z.number().int().positive(),
      applicationFee: z.number().int().nonnegative(),
      currency: z.string(),
      startedAt: iso,
      expiresAt: iso,
    }),
  },
  TipAuthorized: {
    version: PaymentsEventsForQuestions.TipAuthorized.version,
    schema: PaymentsEventsForQuestions.TipAuthorized.schema.extend({ recipientUserId: z.uuid() }),
  },
  TipCaptured: {
    version: PaymentsEventsForQuestions.TipCaptured.version,
    schema: PaymentsEventsForQuestions.TipCaptured.schema.extend({
      recipientUserId: z.uuid(),
      amount: z.number().int().positive(),
      applicationFee: z.number().int().nonnegative(),
      net: z.number().int().nonnegative(),
      currency: z.string(),
    }),
  },
  /** The hold was released (the PaymentIntent cancelled, or the checkout never paid): nothing was charged. */
  TipRefunded: {
    version: PaymentsEventsForQuestions.TipRefunded.version,
    schema: PaymentsEventsForQuestions.TipRefunded.schema.extend({
      recipientUserId: z.uuid(),
      amount: z.number().int().positive(),
      currency: z.string(),
      reason: z.enum(TIP_RELEASE_REASONS),
    }),
  },
} as const;
export type PaymentsEventType = keyof typeof PaymentsEvents;
