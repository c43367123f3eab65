import { describe, expect, it } from 'vitest';
import { ZQuestion } from '@ques/contracts';
import type { QuestionRow } from '../db/schema.js';
import { toPublicQuestion, toQuestion } from './views.js';

const at = new Date('2026-11-23T06:00:00.000Z');

function row(overrides: Partial<QuestionRow> = {}): QuestionRow {
  return {
    id: '0b6f1e36-1f2c-4f59-9a57-1c1b3f0b2a11',
    lifecycle: 'pending',
    is_curated: false,
    question: 'Is the inbox quick?',
    detail: 'Asked as typed',
    answer: null,
    source: '',
    tags: ['speed'],
    display_on_profile: true,
    asker_private: false,
    public_question: null,
    public_detail: null,
    deleted_by_receiver: false,
    to_user_id: '5d0f1c0e-8c1b-4c43-9a8e-6b1f6f3d2c01',
    to_username: 'owner',
    recipient_name: 'Olive Owner',
    to_user_email: 'olive@example.com',
    asker_user_id: null,
    from_username: 'guest',
    asked_name: 'Gus Guest',
    asked_email: 'gus@example.com',
    replier_name: null,
    tip_amount: 500,
    currency: 'usd',
    payment_ref: 'pi_1',
    tip_status: 'held',
    answer_deadline: at,
    answer_window_expired: false,
    created_at: at,
    updated_at: at,
    answered_at: null,
    version: 2,
    hidden_reason: null,
    hidden_at: null,
    ...overrides,
  };
}

describe('a question as one of its parties sees it', () => {
  it('is the public view with the original wording and the party fields; the recipient alone sees their e-mail', () => {
    const asRecipient = toQuestion(row(), 'recipient');
    expect(asRecipient).toEqual({
      ...toPublicQuestion(row()),
      question: 'Is the inbox quick?',
      detail: 'Asked as typed',
      toUserId: '5d0f1c0e-8c1b-4c43-9a8e-6b1f6f3d2c01',
      fromUsername: 'guest',
      askedName: 'Gus Guest',
      askedEmail: 'gus@example.com',
      yourName: 'Gus Guest',
      yourEmail: 'gus@example.com',
      tip: 5,
      tipAmount: 500,
      currency: 'usd',
      tipStatus: 'held',
      answerDeadline: '2026-11-23T06:00:00.000Z',
      answerWindowExpired: false,
      isPrivate: false,
      toUserEmail: 'olive@example.com',
    });
    expect(ZQuestion.parse(asRecipient)).toEqual(asRecipient);
    const asAsker = toQuestion(row(), 'asker');
    expect(asAsker).not.toHaveProperty('toUserEmail');
    expect(asAsker).not.toHaveProperty('publicQuestion');
  });

  it('adds the public wording when the owner redacted it, and the reason an operator hid the answer (recipient only)', () => {
    const redacted = row({ public_question: 'Is it quick?', public_detail: null, hidden_reason: 'spam', hidden_at: at });
    const asRecipient = toQuestion(redacted, 'recipient');
    expect(asRecipient).toMatchObject({
      question: 'Is the inbox quick?',
      publicQuestion: 'Is it quick?',
      publicDetail: '',
      hiddenByOperator: { reason: 'spam', hiddenAt: '2026-11-23T06:00:00.000Z' },
    });
    expect(toPublicQuestion(redacted).question).toBe('Is it quick?');
    expect(toQuestion(redacted, 'asker')).not.toHaveProperty('hiddenByOperator');
  });
});
