import { describe, expect, it } from 'vitest';
import { AppError } from '@ques/kit/errors';
import { deciderSpec } from '@ques/kit/testing';
import { supportRequestDecider, type SupportRequestCommand } from './decide.js';
import type { SupportRequestEvent } from './support-request.js';

const now = new Date('2026-11-21T10:00:00.000Z');
const later = new Date('2026-11-21T10:00:02.000Z');
const requestId = '0b8f8a52-7c0e-4c39-9d43-3d6f3f1f2a10';
const requester = { userId: '6f1c1c8e-3a0b-4a9e-9d1e-1c7c8f1f0a01', username: 'ada-lovelace' };

const request = (
  overrides: Partial<Extract<SupportRequestCommand, { type: 'RequestSupport' }>['data']> = {},
): SupportRequestCommand => ({
  type: 'RequestSupport',
  data: {
    requestId,
    category: 'Billing Issue',
    title: '  Charged twice ',
    description: ' My card was charged twice.\n',
    requester,
    now,
    ...overrides,
  },
});

const spec = deciderSpec(supportRequestDecider);
const requested: SupportRequestEvent = {
  type: 'SupportRequested',
  data: {
    requestId,
    category: 'Billing Issue',
    title: 'Charged twice',
    description: 'My card was charged twice.',
    userId: requester.userId,
    username: requester.username,
    requestedAt: now.toISOString(),
  },
};

describe('support request decider', () => {
  it('records a request with trimmed text and the signed-in sender', () => {
    spec.given([]).when(request()).then([requested]);
  });

  it('records a guest request without a sender', () => {
    spec
      .given([])
      .when(request({ requester: null }))
      .then(([event], state) => {
        expect(event?.type === 'SupportRequested' && event.data).toMatchObject({ userId: null, username: null });
        expect(state.status === 'requested' && state.requester).toBeNull();
      });
  });

  it.each([
    ['an empty title', { title: '' }],
    ['a blank title', { title: '   \n' }],
    ['a blank description', { description: '\t ' }],
  ])('rejects %s with the spec message (400)', (_label, overrides) => {
    spec.given([]).when(request(overrides)).thenThrows(AppError);
    spec.given([]).when(request(overrides)).thenThrows({ status: 400, message: 'Please fill in all required fields.' });
  });

  it('bounds the title and description', () => {
    spec.given([]).when(request({ title: 'x'.repeat(201) })).thenThrows({ message: 'Title must be at most 200 characters' });
    spec.given([]).when(request({ description: 'x'.repeat(5001) })).thenThrows({ status: 400 });
    spec.given([]).when(request({ title: 'x'.repeat(200) })).then((events) => expect(events).toHaveLength(1));
  });

  it('rejects an unknown category', () => {
    spec.given([]).when(request({ category: 'Refund please' as never })).thenThrows({ status: 400 });
  });

  it('folds the sender into state', () => {
    const state = spec.given([requested]).state();
    expect(state.status === 'requested' && state.requester).toEqual(requester);
  });

  it('refuses to record the same request twice (409)', () => {
    spec.given([requested]).when(request()).thenThrows({ status: 409 });
  });

  it('records the inbox mail once, then nothing on a retried job', () => {
    const mail: SupportRequestCommand = {
      type: 'RecordInboxMail',
      data: { to: 'support@example.com', messageId: '<m@x>', now: later },
    };
    const mailed = spec
      .given([requested])
      .when(mail)
      .then((events, state) => {
        expect(events).toEqual([
          {
            type: 'SupportInboxMailed',
            data: { requestId, to: 'support@example.com', messageId: '<m@x>', mailedAt: later.toISOString() },
          },
        ]);
        expect(state.status === 'requested' && state.mailedAt).toBe(later.toISOString());
      });
    spec.given([requested, ...mailed]).when(mail).thenNothingHappened();
  });

  it('cannot mail a request that does not exist (404)', () => {
    const mail: SupportRequestCommand = {
      type: 'RecordInboxMail',
      data: { to: 'support@example.com', messageId: '<m@x>', now },
    };
    spec.given([]).when(mail).thenThrows({ status: 404 });
  });
});

describe('an operator answers a support request (issue 18)', () => {
  const answer = (note: string): SupportRequestCommand => ({ type: 'AnswerRequest', data: { note, operator: 'olive', now: later } });
  it('records the note once, then its mail once', () => {
    const [answered] = supportRequestDecider.decide(answer(' Paid on Monday. '), spec.given([requested]).state());
    expect(answered).toEqual({
      type: 'SupportRequestAnswered',
      data: { requestId, userId: requester.userId, note: 'Paid on Monday.', operator: 'olive', answeredAt: later.toISOString() },
    });
    spec.given([requested, answered!]).when(answer('Paid on Monday.')).thenNothingHappened();
    const mail: SupportRequestCommand = { type: 'RecordAnswerMail', data: { messageId: '<a@x>', now: later } };
    const [mailed] = supportRequestDecider.decide(mail, spec.given([requested, answered!]).state());
    expect(mailed?.type).toBe('SupportAnswerMailed');
    spec.given([requested, answered!, mailed!]).when(mail).thenNothingHappened();
  });
  it('needs a note and an existing request', () => {
    spec.given([requested]).when(answer('  ')).thenThrows({ status: 400, message: 'Please write a note.' });
    spec.given([]).when(answer('x')).thenThrows({ status: 404 });
  });
});
