import { PaymentsEvents, type PaymentsEventType } from '@ques/contracts';
import type { IntegrationMapper, RecordedEvent } from '@ques/kit';
import type { PayoutAccountEvent } from './accounts/domain/payout-account.js';
import type { TipOptionsEvent } from './tip-options/domain/tip-options.js';
import type { TipEvent } from './tips/domain/tip.js';

const publish = <T extends PaymentsEventType>(type: T, data: unknown) => ({
  type,
  version: PaymentsEvents[type].version,
  // Parsing strips private fields (the connected account of a tip, the PaymentIntent id) and fails loudly on drift.
  data: PaymentsEvents[type].schema.parse(data),
});

type PaymentsEvent = PayoutAccountEvent | TipOptionsEvent | TipEvent;

/** The public subset of payments' events; capture and release requests stay private (decisions, not facts). */
export const paymentsIntegration: IntegrationMapper = (recorded: RecordedEvent) => {
  const e = { type: recorded.type, data: recorded.data } as PaymentsEvent;
  switch (e.type) {
    case 'PayoutAccountLinked':
    case 'PayoutAccountStatusChanged':
    case 'TipOptionsSaved':
    case 'CheckoutStarted':
    case 'TipAuthorized':
    case 'TipCaptured':
    case 'TipRefunded':
    case 'CheckoutExpired':
      return publish(e.type, e.data);
    case 'TipCaptureRequested':
    case 'TipReleaseRequested':
      return null;
    default: {
      const unknown: never = e;
      return unknown;
    }
  }
};
