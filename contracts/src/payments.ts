import { z } from 'zod';
import {
  MAX_TIP_OPTIONS,
  PAYMENT_MESSAGES,
  PAYOUT_ACCOUNT_STATUSES,
  TIP_OPTION_VALUES,
  TIP_RELEASE_REASONS,
  toTipOption,
  type PaymentStatus,
  type TipOption,
  type TipOptionValue,
} from './core/payments.js';
import { dollarsToCents } from './core/money.js';
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

// Tip options, fee, payout statuses and the spec's payment messages live in ./core/payments.ts (zod-free: the
// browser imports them from there).
export * from './core/payments.js';

// ---- requests ----

/** `PUT /api/payments/tipOptions`: `userId` is in the spec's payload but the owner is whoever the token says. */
export const ZSaveTipOptionsRequest = z.object({
  userId: z.unknown().optional(),
  /** Absent: only the switch changes (issue 28: the tipping switch saves at once, the saved options stay). */
  tipOptions: z.array(z.unknown(), { error: PAYMENT_MESSAGES.invalidOption }).optional(),
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

/**
 * `POST /api/payments/connect`: the country of the connected account. Required (issue 28): it cannot be changed
 * later, so the owner chooses it explicitly (the page prefills it from the browser's locale) — no silent default.
 */
export const ZConnectRequest = z.object({
  userId: z.unknown().optional(),
  country: z
    .string({
      error: (issue) => (issue.input === undefined ? PAYMENT_MESSAGES.chooseCountry : PAYMENT_MESSAGES.invalidCountry),
    })
    .trim()
    .regex(/^[A-Za-z]{2}$/, PAYMENT_MESSAGES.invalidCountry)
    .transform((c) => c.toUpperCase()),
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
  const cents = dollarsToCents(value) ?? 0;
  return cents >= MIN_TIP_CENTS ? { ok: true, value: cents } : { ok: false, message: ASK_MESSAGES.penny };
}

// ---- responses ----
//
// Strict zod schemas (a field not declared here is a failed response, not a silently stripped one); their inferred
// types are what the web app imports, type-only, from `@ques/contracts/core`. Amounts: the ledger's are cents.

const ZTipOption = z.strictObject({ id: z.string(), value: z.enum(TIP_OPTION_VALUES), removable: z.boolean() });

export const ZTipOptionsResponse = z.strictObject({
  tipOptions: z.array(ZTipOption),
  tippingEnabled: z.boolean(),
});
export type TipOptionsResponse = z.infer<typeof ZTipOptionsResponse>;

export const ZSaveTipOptionsResponse = ZTipOptionsResponse.extend({ message: z.string() });
export type SaveTipOptionsResponse = z.infer<typeof ZSaveTipOptionsResponse>;

export const ZAccountStatusResponse = z.strictObject({
  userId: z.string(),
  /** null until the owner connects. */
  stripeAccountId: z.string().nullable(),
  /** Spec §3: "a completed value matters". null without an account. */
  stripeAccountStatus: z.enum(PAYOUT_ACCOUNT_STATUSES).nullable(),
  /** The payout account's country (chosen once, issue 28); null without an account. */
  country: z.string().nullable(),
  chargesEnabled: z.boolean(),
  payoutsEnabled: z.boolean(),
  detailsSubmitted: z.boolean(),
});
export type AccountStatusResponse = z.infer<typeof ZAccountStatusResponse>;

export const ZConnectResponse = z.strictObject({
  /** The provider's hosted onboarding page; the web app navigates to it. */
  url: z.string(),
  stripeAccountId: z.string(),
});
export type ConnectResponse = z.infer<typeof ZConnectResponse>;

/** Spec §3 "Checkout session gives sessionId, paymentIntentId, message" — plus the hosted page's `url`. */
export const ZCheckoutSessionResponse = z.strictObject({
  sessionId: z.string(),
  /** Stripe creates the PaymentIntent when the card is submitted: null until then. */
  paymentIntentId: z.string().nullable(),
  url: z.string(),
  questionId: z.string(),
  message: z.string(),
});
export type CheckoutSessionResponse = z.infer<typeof ZCheckoutSessionResponse>;

const PAYMENT_STATUSES = ['checkout', 'held', 'capturing', 'captured', 'releasing', 'released'] as const satisfies readonly PaymentStatus[];

/** finalize-payment / cancel-payment. */
export const ZPaymentActionResponse = z.strictObject({
  message: z.string(),
  questionId: z.string(),
  status: z.enum(PAYMENT_STATUSES),
});
export type PaymentActionResponse = z.infer<typeof ZPaymentActionResponse>;

export const ZLedgerEntry = z.strictObject({
  questionId: z.string(),
  /** Cents charged to the asker. */
  amount: z.number().int(),
  /** Cents the platform keeps (10 %). */
  applicationFee: z.number().int(),
  /** Cents the owner receives. */
  net: z.number().int(),
  currency: z.string(),
  capturedAt: z.iso.datetime({ offset: true }),
});
export type LedgerEntry = z.infer<typeof ZLedgerEntry>;

export const ZEarningsResponse = z.strictObject({
  totals: z.strictObject({
    count: z.number().int(),
    amount: z.number().int(),
    applicationFee: z.number().int(),
    net: z.number().int(),
    currency: z.string(),
  }),
  entries: z.array(ZLedgerEntry),
});
export type EarningsResponse = z.infer<typeof ZEarningsResponse>;

// ---- request parameters (the declarations in ./api/payments.ts) ----
//
// Loose on purpose where the service checks with the spec's sentence (a bad `userId` is "userId must be a user id",
// a foreign one the 403 of `onlyOwner`): the schema types the input, the rule gives the message.

/** `?userId=`: whose tip options (public) or whose account status (the caller's own; defaults to the caller). */
export const ZUserIdQuery = z.object({ userId: z.string({ error: 'userId must be a user id' }).optional() });

/** `GET /api/payments/earnings`. */
export const ZEarningsQuery = z.object({
  userId: z.string().optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
});

/** `/api/payments/process/:id/...`: the question whose tip it is. */
export const ZPaymentQuestionParams = z.object({ id: z.string().max(200) });

/** finalize-payment and cancel-payment take no body (whatever a client sends is ignored). */
export const ZNoBody = z.unknown();

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
  /** The checkout ended unpaid (see `PaymentsEventsForQuestions.CheckoutExpired`): its question goes. */
  CheckoutExpired: {
    version: PaymentsEventsForQuestions.CheckoutExpired.version,
    schema: PaymentsEventsForQuestions.CheckoutExpired.schema,
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
