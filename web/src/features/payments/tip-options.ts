import {
  DEFAULT_TIP_OPTION_VALUES,
  MAX_TIP_OPTIONS,
  PAYMENT_MESSAGES,
  TIP_OPTION_VALUES,
  type PayoutAccountStatus,
  type TipOption,
  type TipOptionValue,
} from '@ques/contracts/core';

/*
 * Editing the owner's tip options (spec §2 "Payment"): the allowed values, the maximum of 5, the defaults and the
 * messages are the contracts' (the server checks the same rules).
 */

/** An option while it is edited: its id keys the row, not the server's option. */
export type EditableTipOption = TipOption;

export const isTipValue = (value: unknown): value is TipOptionValue =>
  typeof value === 'string' && (TIP_OPTION_VALUES as readonly string[]).includes(value);

// Row ids only key the rows while editing (they stay put when a value changes); the server assigns its own.
let sequence = 0;
const option = (value: TipOptionValue): EditableTipOption => ({ id: `option-${++sequence}`, value, removable: value !== '$0' });

export const defaultTipOptions = (): EditableTipOption[] => DEFAULT_TIP_OPTION_VALUES.map(option);

/**
 * What the server sent, made safe to edit: allowed values only, no duplicates, `$0` present, first and not
 * removable, at most 5.
 */
export function fromServer(options: readonly (Omit<TipOption, 'value'> & { value: string })[]): EditableTipOption[] {
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

/** Spec §4: tipping can be turned on only with a payout account whose status is completed. Null when allowed. */
export function tippingBlockedBy(
  account: { stripeAccountId: string | null; stripeAccountStatus: PayoutAccountStatus | null } | null,
): string | null {
  if (!account?.stripeAccountId) return PAYMENT_MESSAGES.setUpFirst;
  if (account.stripeAccountStatus !== 'completed') return PAYMENT_MESSAGES.completeFirst;
  return null;
}

