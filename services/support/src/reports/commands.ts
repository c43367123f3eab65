import { CommandHandler, type CommandsOf, type EventStore } from '@ques/kit';
import type { SupportDB } from '../db/schema.js';
import { abuseReportDecider, abuseReportStreamId } from './domain.js';

export type AbuseReportCommands = CommandsOf<typeof abuseReportDecider, SupportDB>;

export const abuseReportCommands = (store: EventStore<SupportDB>): AbuseReportCommands =>
  new CommandHandler(store, { decider: abuseReportDecider, streamId: abuseReportStreamId });
