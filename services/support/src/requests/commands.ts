import { CommandHandler, type EventStore } from '@ques/kit';
import type { SupportDB } from '../db/schema.js';
import { supportRequestDecider, type SupportRequestCommand } from './domain/decide.js';
import {
  supportRequestStreamId,
  type SupportRequestEvent,
  type SupportRequestState,
} from './domain/support-request.js';

/** Commands on a support request (`support-request-<id>` streams), through the kit's one command handler. */
export type SupportRequestCommands = CommandHandler<
  SupportRequestCommand,
  SupportRequestEvent,
  SupportRequestState,
  SupportDB
>;

export const supportRequestCommands = (store: EventStore<SupportDB>): SupportRequestCommands =>
  new CommandHandler(store, { decider: supportRequestDecider, streamId: supportRequestStreamId });
