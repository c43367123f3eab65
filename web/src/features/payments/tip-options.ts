import type { TipOption } from '../../lib/api';

/** Spec §5/§9: the values a tip option may take, and at most 5 options. */
export const TIP_OPTION_VALUES = ['$0', '$1', '$5', '$10', '$25', '$50', '$100', '$250', '$500', '$1000', 'Custom'] as const;
export type TipOptionValue = (typeof TIP_OPTION_VALUES)[number];
export const MAX_TIP_OPTIONS = 5;

/** Spec §3 defaults: $0 (not removable), $5, $25, $50, Custom. */
export const DEFAULT_TIP_VALUES: readonly TipOptionValue[] = ['$0', '$5', '$25', '$50', 'Custom'];

export interface EditableTipOption extends TipOption {
  id: string;
  value: TipOptionValue;
}

export const isTipValue = (value: unknown): value is TipOptionValue =>
  typeof value === 'string' && (TIP_OPTION_VALUES as readonly string[]).includes(value);

// Row ids only key the rows while editing (they stay put when a value changes); the server assigns its own.
let sequence = 0;
const option = (value: TipOptionValue): EditableTipOption => ({ id: `option-${++sequence}`, value, removable: value !== '$0' });

export const defaultTipOptions = (): EditableTipOption[] => DEFAULT_TIP_VALUES.map(option);

/**
 * What the server sent, made safe to edit: allowed values only, no duplicates, `$0` present, first and not
 * removable, at most 5.
 */
export function fromServer(options: readonly TipOption[]): EditableTipOption[] {
  const values: TipOptionValue[] = ['$0'];
  for (const o of options) if (isTipValue(o.value) && !values.includes(o.value)) values.push(o.value);
  return values.slice(0, MAX_TIP_OPTIONS).map(option);
}

export const canAdd = (options: readonly EditableTipOption[]) => options.length < MAX_TIP_OPTIONS;

/** Adds the first allowed value not offered yet; unchanged at the maximum. */
export function addTipOption(options: readonly EditableTipOption[]): readonly EditableTipOption[] {
  if (!canAdd(options)) return options;
  const next = TIP_OPTION_VALUES.find((v) => v !== '$0' && !options.some((o) => o.value === v));
  return next ? [...options, option(next)] : options;
}

/** Removes a removable option; `$0` stays. */
export function removeTipOption(options: readonly EditableTipOption[], id: string): readonly EditableTipOption[] {
  const target = options.find((o) => o.id === id);
  if (!target || !target.removable) return options;
  return options.filter((o) => o.id !== id);
}

/** Changes an option's value; `$0` is fixed and a value offered by another option is refused. */
export function changeTipOption(
  options: readonly EditableTipOption[],
  id: string,
  value: TipOptionValue,
): readonly EditableTipOption[] {
  const target = options.find((o) => o.id === id);
  if (!target || !target.removable || value === '$0') return options;
  if (options.some((o) => o.id !== id && o.value === value)) return options;
  return options.map((o) => (o.id === id ? { ...o, value } : o));
}

export const TIPPING_MESSAGES = {
  setUpFirst: 'Please set up your Stripe Connect account first.',
  completeFirst: 'Please complete your Stripe Connect account before enabling tipping.',
} as const;

/** Spec §4: tipping can be turned on only with a payout account whose status is completed. Null when allowed. */
export function tippingBlockedBy(account: { stripeAccountId: string | null; stripeAccountStatus: string | null } | null): string | null {
  if (!account?.stripeAccountId) return TIPPING_MESSAGES.setUpFirst;
  if (account.stripeAccountStatus !== 'completed') return TIPPING_MESSAGES.completeFirst;
  return null;
}
