/*
 * The zod-free part of the payments context: tip options (spec §3, §5, §9), the platform fee, payout account
 * statuses and the spec §8 payment messages. Re-exported by `../payments.ts` and by `@ques/contracts/core`.
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
  chooseCountry: 'Please choose the country of your payout account. It cannot be changed later.',
  onlyOwner: 'You can only see and change your own payment settings.',
  ownProfile: 'You cannot tip your own profile.',
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
