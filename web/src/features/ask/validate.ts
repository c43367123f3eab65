import { ASK_MESSAGES, MIN_TIP_CENTS } from '@ques/contracts/core';

/** Spec §5 rule 7: a custom tip is at least one whole dollar. */
const MIN_CUSTOM_TIP = MIN_TIP_CENTS / 100;

/** The fields with a rule of their own. */
export type AskInput = 'title' | 'agree' | 'name' | 'email' | 'tip';

/** A guest's contact fields, each with its own message (the spec's "Name and Email are required", split per field). */
export const ASK_CONTACT_MESSAGES = { name: 'Name is required', email: 'Email is required' } as const;

export interface AskDraft {
  title: string;
  isGuest: boolean;
  agreed: boolean;
  name: string;
  email: string;
  /** `undefined` counts as enabled: only an explicit `false` skips the tip rules (spec §5 rule 6). */
  tippingEnabled: boolean | undefined;
  /** Chosen preset value such as "$5", or null. */
  preset: string | null;
  /** What is typed in the custom amount field. */
  custom: string;
}

export interface AskRecipient {
  id?: string | undefined;
  /**
   * Absent when the API does not expose it (the public profile never carries an e-mail; the server resolves
   * it from `toUserId`). Present but empty means the recipient really has none: rule 5 applies.
   */
  email?: string | undefined;
}

/**
 * Spec §5 ask-modal rules 1–3, 6 and 7 as per-field errors (issue 28: all shown at once, each under its field), in
 * the form's order. Rules 4–5 are about the recipient, not a field: `recipientProblem`.
 */
export function askFieldErrors(draft: AskDraft): Partial<Record<AskInput, string>> {
  const custom = draft.custom.trim();
  const tip =
    draft.tippingEnabled !== false && draft.preset === null && custom === ''
      ? ASK_MESSAGES.selectTip
      : custom !== '' && !(Number(custom) >= MIN_CUSTOM_TIP)
        ? ASK_MESSAGES.penny
        : undefined;
  return {
    title: draft.title.trim() ? undefined : ASK_MESSAGES.titleRequired,
    name: draft.isGuest && !draft.name.trim() ? ASK_CONTACT_MESSAGES.name : undefined,
    email: draft.isGuest && !draft.email.trim() ? ASK_CONTACT_MESSAGES.email : undefined,
    tip,
    agree: draft.isGuest && !draft.agreed ? ASK_MESSAGES.mustAgree : undefined,
  };
}

/** Spec §5 rules 4–5: the recipient's data is incomplete (the form's banner says so; no field is at fault). */
export function recipientProblem(recipient: AskRecipient): string | null {
  if (!recipient.id) return ASK_MESSAGES.recipientMissing;
  if ('email' in recipient && !recipient.email?.trim()) return ASK_MESSAGES.recipientEmailMissing;
  return null;
}

/** "$25" → 25 (spec §3: presets are parsed by stripping the dollar sign). */
export function parsePreset(value: string): number {
  const n = Number(value.replace('$', '').replace(/,/g, '').trim());
  return Number.isFinite(n) ? n : 0;
}

/** The tip in dollars the draft stands for (0 when tipping is off). */
export function tipAmount(draft: Pick<AskDraft, 'tippingEnabled' | 'preset' | 'custom'>): number {
  if (draft.tippingEnabled === false) return 0;
  if (draft.preset !== null) return parsePreset(draft.preset);
  const n = Number(draft.custom.trim());
  return Number.isFinite(n) && n > 0 ? Math.round(n * 100) / 100 : 0;
}
