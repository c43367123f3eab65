import { IdentityEvents } from '@ques/contracts';
import { PersonalDataVault, type ConsumerDefinition } from '@ques/kit';
import type { SupportDB } from '../db/schema.js';
import { eraseFromConsole } from '../console/read-models.js';
import { SUPPORT_PERSONAL_FIELDS } from './domain/support-request.js';

/**
 * A signed-in sender's title, description and username are stored sealed with that person's key; a guest's with a
 * key of the request's own (nobody can ask to forget a guest, but an admin could erase one request).
 */
export const supportVault = new PersonalDataVault({
  fields: SUPPORT_PERSONAL_FIELDS,
  subjectOf: ({ data }) =>
    typeof data.userId === 'string' && data.userId
      ? data.userId
      : typeof data.reportId === 'string'
        ? `guest-report-${data.reportId}`
        : `guest-request-${String(data.requestId)}`,
});

/** `UserDeleted` → the person's key is destroyed: their support requests stay in the log but read as erased. */
export function forgetDeletedUsers(vault: PersonalDataVault): ConsumerDefinition<SupportDB> {
  return {
    durable: 'support--forget-deleted-users',
    context: 'identity',
    handlers: {
      UserDeleted: {
        schema: IdentityEvents.UserDeleted.schema,
        effect: async (trx, envelope: { data: { userId: string } }) => {
          await vault.forget(trx, envelope.data.userId);
          await eraseFromConsole(trx, envelope.data.userId);
        },
      },
    },
  };
}
