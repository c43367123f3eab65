import { CommandHandler, type EventStore } from '@ques/kit';
import type { IdentityDB } from '../db/schema.js';
import { userDecider, type UserCommand } from './domain/decide.js';
import { userStreamId, type UserEvent, type UserState } from './domain/user.js';

/** Commands on a user (`user-<id>` streams), through the kit's one command handler. */
export type UserCommands = CommandHandler<UserCommand, UserEvent, UserState, IdentityDB>;

export const userCommands = (store: EventStore<IdentityDB>): UserCommands =>
  new CommandHandler(store, { decider: userDecider, streamId: userStreamId });
