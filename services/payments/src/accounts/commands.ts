import { CommandHandler, type CommandsOf, type EventStore } from '@ques/kit';
import type { PaymentsDB } from '../db/schema.js';
import { payoutAccountDecider } from './domain/decide.js';
import { payoutAccountStreamId } from './domain/payout-account.js';

/** Commands on an owner's payout account (`payout-account-<userId>` streams). */
export type PayoutAccountCommands = CommandsOf<typeof payoutAccountDecider, PaymentsDB>;

/**
 * A writer that lost a race decides again on the fresh state (repeats are no-ops in this decider, so a lost race ends
 * as "already done", not as an error).
 */
export const payoutAccountCommands = (store: EventStore<PaymentsDB>): PayoutAccountCommands =>
  new CommandHandler(store, { decider: payoutAccountDecider, streamId: payoutAccountStreamId, retries: 4 });
