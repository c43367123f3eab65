import { erasedValue, letterMail, type Clock, type EventStore, type JobHandler, type Logger, type Mailer, type MailMessage } from '@ques/kit';
import type { SupportDB } from '../db/schema.js';
import type { SupportRequestCommands } from './commands.js';
import { supportRequestStreamId, type SupportRequestState } from './domain/support-request.js';

/** The scheduler job that mails one request to the support inbox; scheduled in the request's own transaction. */
export const INBOX_MAIL_JOB = 'support.inbox-mail';
export const inboxMailJobKey = (requestId: string) => `support-inbox-mail:${requestId}`;

/** `messageId` is stable per request, so a resend after a crash between sending and committing can be recognised. */
export type InboxMessage = MailMessage & { messageId: string };

const oneLine = (value: string) => value.replace(/[\r\n\t]+/g, ' ').trim();

/** Pure: the e-mail the support inbox receives for a request (a letter in Ques's colours, ADR 0053). */
export function composeInboxMail(
  state: Extract<SupportRequestState, { status: 'requested' }>,
  to: string,
): InboxMessage {
  const sender = state.requester
    ? `${state.requester.username} (user id ${state.requester.userId}, signed in)`
    : 'a guest (not signed in)';
  return letterMail(
    {
      to,
      subject: oneLine(`[Support] ${state.category}: ${state.title}`).slice(0, 250),
      messageId: `<support-request-${state.requestId}@ques.support>`,
    },
    {
      preview: `${state.category} from ${state.requester ? state.requester.username : 'a guest'}`,
      heading: `Support request: ${state.category}`,
      facts: [
        { label: 'Category', value: state.category },
        { label: 'From', value: sender },
        { label: 'Request id', value: state.requestId },
        { label: 'Received', value: state.requestedAt },
      ],
      body: [
        { label: 'Title:', quote: state.title },
        { label: 'Description:', quote: state.description },
      ],
      footer: 'Sent to the support inbox for every request; answer it from the operator console.',
    },
  );
}

export interface InboxMailDeps {
  store: EventStore<SupportDB>;
  requests: SupportRequestCommands;
  mailer: Pick<Mailer, 'send'>;
  inbox: string;
  clock: Clock;
  log: Logger;
}

/**
 * Sends the mail, then records `SupportInboxMailed` in the job's transaction. The job row commits together with the
 * request, so an accepted request is mailed even if the process dies right after answering; a failed send is retried
 * with backoff by the scheduler. Delivery is at-least-once: a crash between the SMTP hand-off and the commit sends
 * again, with the same Message-ID.
 */
export function inboxMailJob(deps: InboxMailDeps): JobHandler<SupportDB> {
  const { requests, mailer, inbox, log } = deps;
  return async (trx, job) => {
    const { requestId } = job.payload as { requestId: string };
    // The request's first event carries the correlation the mail's event continues.
    const [first] = await deps.store.readStream(supportRequestStreamId(requestId), trx);
    if (!first) throw new Error(`support request ${requestId} has no events`);
    const { state } = await requests.load(requestId, trx);
    if (state.status !== 'requested' || state.mailedAt) return;
    if (state.requester && state.requester.username === erasedValue(state.requester.userId)) {
      // The sender deleted their account before the mail went out: their words are gone, so is the mail.
      log.info({ requestId }, 'support request not mailed: the sender was deleted');
      return;
    }
    const message = composeInboxMail(state, inbox);
    await mailer.send(message);
    const { correlationId } = first.metadata;
    await requests.handle(
      requestId,
      { type: 'RecordInboxMail', data: { to: inbox, messageId: message.messageId, now: deps.clock() } },
      { correlationId, causationId: first.eventId, actor: null },
      { transaction: trx },
    );
    log.info({ requestId, correlationId }, 'support request mailed to the inbox');
  };
}
