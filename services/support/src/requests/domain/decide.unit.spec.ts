import { describe, expect, it } from 'vitest';
import { AppError } from '@ques/kit/errors';
import { decideSupportRequest, supportRequestDecider, type SupportRequestCommand } from './decide.js';
import type { SupportRequestEvent, SupportRequestState } from './support-request.js';

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

/** given events → state, when command → events (or error) */
function given(...events: SupportRequestEvent[]): SupportRequestState {
  return events.reduce(supportRequestDecider.evolve, supportRequestDecider.initialState());
}
function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected the command to be rejected');
}
const requested = decideSupportRequest(request(), given())[0]!;

describe('support request decider', () => {
  it('records a request with trimmed text and the signed-in sender', () => {
    expect(requested).toEqual({
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
    });
  });

  it('records a guest request without a sender', () => {
    const [event] = decideSupportRequest(request({ requester: null }), given());
    expect(event?.type === 'SupportRequested' && event.data).toMatchObject({ userId: null, username: null });
    const state = given(event!);
    expect(state.status === 'requested' && state.requester).toBeNull();
  });

  it.each([
    ['an empty title', { title: '' }],
    ['a blank title', { title: '   \n' }],
    ['a blank description', { description: '\t ' }],
  ])('rejects %s with the spec message (400)', (_label, overrides) => {
    const error = errorOf(() => decideSupportRequest(request(overrides), given()));
    expect(error).toBeInstanceOf(AppError);
    expect(error.status).toBe(400);
    expect(error.message).toBe('Please fill in all required fields.');
  });

  it('bounds the title and description', () => {
    expect(errorOf(() => decideSupportRequest(request({ title: 'x'.repeat(201) }), given())).message).toBe(
      'Title must be at most 200 characters',
    );
    expect(
      errorOf(() => decideSupportRequest(request({ description: 'x'.repeat(5001) }), given())).status,
    ).toBe(400);
    expect(decideSupportRequest(request({ title: 'x'.repeat(200) }), given())).toHaveLength(1);
  });

  it('rejects an unknown category', () => {
    const error = errorOf(() =>
      decideSupportRequest(request({ category: 'Refund please' as never }), given()),
    );
    expect(error.status).toBe(400);
  });

  it('folds the sender into state', () => {
    const state = given(requested);
    expect(state.status === 'requested' && state.requester).toEqual(requester);
  });

  it('refuses to record the same request twice (409)', () => {
    expect(errorOf(() => decideSupportRequest(request(), given(requested))).status).toBe(409);
  });

  it('records the inbox mail once, then nothing on a retried job', () => {
    const mail: SupportRequestCommand = {
      type: 'RecordInboxMail',
      data: { to: 'support@example.com', messageId: '<m@x>', now: later },
    };
    const events = decideSupportRequest(mail, given(requested));
    expect(events).toEqual([
      {
        type: 'SupportInboxMailed',
        data: { requestId, to: 'support@example.com', messageId: '<m@x>', mailedAt: later.toISOString() },
      },
    ]);
    const state = given(requested, ...events);
    expect(state.status === 'requested' && state.mailedAt).toBe(later.toISOString());
    expect(decideSupportRequest(mail, state)).toEqual([]);
  });

  it('cannot mail a request that does not exist (404)', () => {
    const mail: SupportRequestCommand = {
      type: 'RecordInboxMail',
      data: { to: 'support@example.com', messageId: '<m@x>', now },
    };
    expect(errorOf(() => decideSupportRequest(mail, given())).status).toBe(404);
  });
});
