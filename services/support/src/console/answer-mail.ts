import { letterMail, type Clock, type EventStore, type JobHandler, type Logger, type Mailer } from '@ques/kit';
import type { SupportDB } from '../db/schema.js';
import type { SupportRequestCommands } from '../requests/commands.js';
import { supportRequestStreamId, type SupportRequestState } from '../requests/domain/support-request.js';

/** Mails an operator's answer to the requester (signed-in, verified address); scheduled with the answer. */
export const ANSWER_MAIL_JOB = 'support.answer-mail';
export const answerMailJobKey = (requestId: string) => `support-answer-mail:${requestId}`;

/** Pure: the mail the requester gets (a letter in Ques's colours, ADR 0053). */
export function composeAnswerMail(state: Extract<SupportRequestState, { status: 'requested' }>, to: string) {
  const title = state.title.replace(/[\r\n\t]+/g, ' ').trim();
  const name = state.requester?.username;
  return letterMail(
    {
      to,
      subject: `Re: ${title}`.slice(0, 250),
      messageId: `<support-answer-${state.requestId}-${Date.parse(state.answer?.answeredAt ?? '') || 0}@ques.support>`,
    },
    {
      preview: `We answered your support request "${title}"`,
      greeting: name ? `Hello ${name},` : 'Hello,',
      heading: 'We answered your support request',
      facts: [
        { label: 'Request', value: title },
        { label: 'Category', value: state.category },
      ],
      body: [{ label: `We answered your support request "${title}" (${state.category}):`, quote: state.answer?.note ?? '' }],
      footer: '— Ques support. You received this because you sent a support request while signed in.',
    },
  );
}

export function answerMailJob(deps: {
  store: EventStore<SupportDB>;
  requests: SupportRequestCommands;
  mailer: Pick<Mailer, 'send'>;
  clock: Clock;
  log: Logger;
}): JobHandler<SupportDB> {
  return async (trx, job) => {
    const { requestId } = job.payload as { requestId: string };
    const [first] = await deps.store.readStream(supportRequestStreamId(requestId), trx);
    if (!first) throw new Error(`support request ${requestId} has no events`);
    const { state } = await deps.requests.load(requestId, trx);
    if (state.status !== 'requested' || !state.answer || state.answer.mailedAt || !state.requester) return;
    const contact = await trx
      .selectFrom('support_contacts')
      .select(['email', 'email_verified', 'deleted'])
      .where('user_id', '=', state.requester.userId)
      .executeTakeFirst();
    // Only a proven address gets mail (ADR 0021); a deleted person gets none.
    if (!contact || contact.deleted || !contact.email_verified || !contact.email) {
      deps.log.info({ requestId }, 'support answer not mailed: no verified address for the requester');
      return;
    }
    const message = composeAnswerMail(state, contact.email);
    await deps.mailer.send(message);
    await deps.requests.handle(
      requestId,
      { type: 'RecordAnswerMail', data: { messageId: message.messageId, now: deps.clock() } },
      { correlationId: first.metadata.correlationId, causationId: first.eventId, actor: null },
      { transaction: trx },
    );
    deps.log.info({ requestId }, 'support answer mailed to the requester');
  };
}
