import { CommandHandler, type CommandsOf, type EventStore } from '@ques/kit';
import type { IdentityDB } from '../db/schema.js';
import { profileClaimDecider, profileClaimStreamId } from './domain.js';

/** Commands on a profile claim (`profile-claim-<id>` streams), through the kit's one command handler. */
export type ProfileClaimCommands = CommandsOf<typeof profileClaimDecider, IdentityDB>;

export const profileClaimCommands = (store: EventStore<IdentityDB>): ProfileClaimCommands =>
  new CommandHandler(store, { decider: profileClaimDecider, streamId: profileClaimStreamId });
