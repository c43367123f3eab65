import { checkTipOptions, PAYMENT_MESSAGES, type PayoutAccountStatus } from '@ques/contracts';
import { badRequest, unprocessable, decider, unreachable } from '@ques/kit/domain';
import {
  evolveTipOptions,
  initialTipOptionsState,
  type TipOptionsEvent,
  type TipOptionsState,
} from './tip-options.js';

export type TipOptionsCommand = {
  type: 'SaveTipOptions';
  data: {
    userId: string;
    /** As sent: option objects or values (validated here); absent, the saved ones stay (the switch alone). */
    tipOptions?: unknown[];
    tippingEnabled: boolean;
    /** The owner's payout account status, or null without one (spec §4: tipping needs a completed account). */
    accountStatus: PayoutAccountStatus | null;
    now: Date;
  };
};

export function decideTipOptions(command: TipOptionsCommand, state: TipOptionsState): TipOptionsEvent[] {
  switch (command.type) {
    case 'SaveTipOptions': {
      const { userId, tippingEnabled, accountStatus, now } = command.data;
      const checked = checkTipOptions(command.data.tipOptions ?? state.tipOptions);
      if (!checked.ok) throw badRequest(checked.message);
      if (tippingEnabled && accountStatus === null) throw unprocessable(PAYMENT_MESSAGES.setUpFirst);
      if (tippingEnabled && accountStatus !== 'completed')
        throw unprocessable(PAYMENT_MESSAGES.completeFirst);
      const tipOptions = checked.value.map((o) => o.value);
      const same =
        state.saved &&
        state.tippingEnabled === tippingEnabled &&
        state.tipOptions.length === tipOptions.length &&
        state.tipOptions.every((v, i) => v === tipOptions[i]);
      if (same) return [];
      return [
        { type: 'TipOptionsSaved', data: { userId, tipOptions, tippingEnabled, savedAt: now.toISOString() } },
      ];
    }
    default:
      return unreachable(command.type);
  }
}

export const tipOptionsDecider = decider(initialTipOptionsState, evolveTipOptions, decideTipOptions);
