/** The tip options aggregate (one per owner): events, state and evolve. Pure — no I/O (lint-enforced). */
import { DEFAULT_TIP_OPTION_VALUES, type TipOptionValue } from '@ques/contracts';

export type TipOptionsEvent = {
  type: 'TipOptionsSaved';
  data: { userId: string; tipOptions: TipOptionValue[]; tippingEnabled: boolean; savedAt: string };
};

export interface TipOptionsState {
  saved: boolean;
  tipOptions: TipOptionValue[];
  tippingEnabled: boolean;
}

/** Spec §3: the defaults, with tipping off, until the owner saves. */
export const initialTipOptionsState = (): TipOptionsState => ({
  saved: false,
  tipOptions: [...DEFAULT_TIP_OPTION_VALUES],
  tippingEnabled: false,
});

export const tipOptionsStreamId = (userId: string) => `tip-options-${userId}`;

export function evolveTipOptions(_state: TipOptionsState, event: TipOptionsEvent): TipOptionsState {
  switch (event.type) {
    case 'TipOptionsSaved':
      return { saved: true, tipOptions: event.data.tipOptions, tippingEnabled: event.data.tippingEnabled };
    default: {
      const unknown: never = event.type;
      return unknown;
    }
  }
}
