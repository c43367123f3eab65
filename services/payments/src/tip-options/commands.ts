import { CommandHandler, type CommandsOf, type EventStore } from '@ques/kit';
import type { PaymentsDB } from '../db/schema.js';
import { tipOptionsDecider } from './domain/decide.js';
import { tipOptionsStreamId } from './domain/tip-options.js';

/** Commands on an owner's tip options (`tip-options-<userId>` streams). */
export type TipOptionsCommands = CommandsOf<typeof tipOptionsDecider, PaymentsDB>;

/** A save that lost a race is decided again on the fresh state (saving the same options twice is a no-op). */
export const tipOptionsCommands = (store: EventStore<PaymentsDB>): TipOptionsCommands =>
  new CommandHandler(store, { decider: tipOptionsDecider, streamId: tipOptionsStreamId, retries: 4 });
