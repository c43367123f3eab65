import { ASK_MESSAGES, MIN_TIP_CENTS } from '@ques/contracts/core';

/** Spec §5 rule 7: a custom tip is at least one whole dollar. */
const MIN_CUSTOM_TIP = MIN_TIP_CENTS / 100;

export type AskField = 'title' | 'agree' | 'name' | 'email' | 'tip' | null;

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

export interface AskProblem {
  message: string;
  field: AskField;
}

/** Spec §5 ask-modal rules 1–7 (messages of `ASK_MESSAGES`, shared with the server), checked in order; the first failure wins. */
export function validateAsk(draft: AskDraft, recipient: AskRecipient): AskProblem | null {
  if (!draft.title.trim()) return { message: ASK_MESSAGES.titleRequired, field: 'title' };
  if (draft.isGuest && !draft.agreed) return { message: ASK_MESSAGES.mustAgree, field: 'agree' };
  if (draft.isGuest && (!draft.name.trim() || !draft.email.trim())) {
    return { message: ASK_MESSAGES.nameAndEmail, field: draft.name.trim() ? 'email' : 'name' };
  }
  if (!recipient.id) return { message: ASK_MESSAGES.recipientMissing, field: null };
  if ('email' in recipient && !recipient.email?.trim()) {
    return { message: ASK_MESSAGES.recipientEmailMissing, field: null };
  }
  const custom = draft.custom.trim();
  if (draft.tippingEnabled !== false && draft.preset === null && custom === '') {
    return { message: ASK_MESSAGES.selectTip, field: 'tip' };
  }
  if (custom !== '' && !(Number(custom) >= MIN_CUSTOM_TIP)) return { message: ASK_MESSAGES.penny, field: 'tip' };
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
