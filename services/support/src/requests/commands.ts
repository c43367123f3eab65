import { CommandHandler, type CommandsOf, type EventStore } from '@ques/kit';
import type { SupportDB } from '../db/schema.js';
import { supportRequestDecider } from './domain/decide.js';
import { supportRequestStreamId } from './domain/support-request.js';

/** Commands on a support request (`support-request-<id>` streams), through the kit's one command handler. */
export type SupportRequestCommands = CommandsOf<typeof supportRequestDecider, SupportDB>;

export const supportRequestCommands = (store: EventStore<SupportDB>): SupportRequestCommands =>
  new CommandHandler(store, { decider: supportRequestDecider, streamId: supportRequestStreamId });
