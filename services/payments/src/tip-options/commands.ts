import { CommandHandler, type EventStore } from '@ques/kit';
import type { PaymentsDB } from '../db/schema.js';
import { tipOptionsDecider, type TipOptionsCommand } from './domain/decide.js';
import { tipOptionsStreamId, type TipOptionsEvent, type TipOptionsState } from './domain/tip-options.js';

/** Commands on an owner's tip options (`tip-options-<userId>` streams). */
export type TipOptionsCommands = CommandHandler<
  TipOptionsCommand,
  TipOptionsEvent,
  TipOptionsState,
  PaymentsDB
>;

/** A save that lost a race is decided again on the fresh state (saving the same options twice is a no-op). */
export const tipOptionsCommands = (store: EventStore<PaymentsDB>): TipOptionsCommands =>
  new CommandHandler(store, { decider: tipOptionsDecider, streamId: tipOptionsStreamId, retries: 4 });
