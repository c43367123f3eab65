import { describe, expect, it } from 'vitest';
import {
  ASK_MESSAGES,
  PATCH_MESSAGES,
  ZAskQuestionBody,
  ZQuestion,
  ZSubmitTippedQuestionRequest,
  ZUserSnapshot,
} from '../index.js';
import { API_CALLS, questionsApi, questionsInternalCalls } from './index.js';

const question = {
  _id: 'q1',
  id: 'q1',
  question: 'Why?',
  detail: '',
  answer: '',
  source: '',
  tags: [],
  status: 'Pending',
  isCurated: false,
  displayOnProfile: true,
  deletedByReceiver: false,
  toUsername: 'ada',
  recipientName: 'Ada',
  replierName: 'Ada',
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:00:00.000Z',
  answeredAt: null,
  toUserId: 'u1',
  fromUsername: 'guest',
  askedName: 'Grace',
  askedEmail: 'grace@example.com',
  yourName: 'Grace',
  yourEmail: 'grace@example.com',
  tip: 5,
  tipAmount: 500,
  currency: 'usd',
  tipStatus: 'held',
  answerDeadline: null,
  answerWindowExpired: false,
};

describe('the questions calls', () => {
  it('lists every public questions call in API_CALLS, and the internal call only in its own map', () => {
    const ids = API_CALLS.map((c) => c.id);
    for (const call of Object.values(questionsApi)) expect(ids).toContain(call.id);
    expect(ids).not.toContain(questionsInternalCalls.submitTipped.id);
    expect(ids).not.toContain(questionsInternalCalls.screen.id);
    expect(Object.values(questionsApi).map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /api/questions',
      'POST /api/questions',
      'GET /api/questions/:id',
      'PUT /api/questions/:id/answer',
      'PATCH /api/questions/:id',
      'DELETE /api/questions/:id',
      // owner control over asking (issue 16)
      'GET /api/asking/status/:username',
      'GET /api/asking/settings',
      'PUT /api/asking/settings',
      'GET /api/asking/blocks',
      'POST /api/questions/:id/block',
      'DELETE /api/asking/blocks/:id',
      // asker trust (issue 14)
      'GET /api/question-status/:token',
      'POST /api/question-status/:token/confirm',
      'POST /api/question-status/:token/withdraw',
      'GET /api/asking/similar/:username',
      'POST /api/questions/:id/status-link',
    ]);
    expect([questionsApi.ask.idempotent, questionsApi.answer.idempotent]).toEqual([true, true]);
  });

  it('checks a response field for field: an undeclared field fails instead of being stripped', () => {
    expect(ZQuestion.safeParse(question).success).toBe(true);
    expect(ZQuestion.safeParse({ ...question, toUserEmail: 'ada@example.com' }).success).toBe(true);
    expect(ZQuestion.safeParse({ ...question, passwordHash: 'x' }).success).toBe(false);
    const { tip: _tip, ...withoutTip } = question;
    expect(ZQuestion.safeParse(withoutTip).success).toBe(false);
  });

  it("accepts the web app's ask payload as it is, and leaves the spec's rules (and their order) to checkAskDraft", () => {
    const payload = {
      question: '',
      detail: '',
      tip: 0,
      isCurated: false,
      toUsername: 'ada',
      recipientName: 'Ada',
      toUserId: '11111111-1111-4111-8111-111111111111',
      fromUsername: 'guest',
      askedName: '',
      askedEmail: '',
      yourName: '',
      yourEmail: '',
      toUserEmail: undefined,
      agreedToTerms: false,
    };
    expect(ZAskQuestionBody.safeParse(payload).success).toBe(true);
    expect(ZAskQuestionBody.parse(undefined)).toEqual({});
    expect(ZAskQuestionBody.safeParse({ tip: true }).error?.issues[0]?.message).toBe(ASK_MESSAGES.selectTip);
    expect(ZAskQuestionBody.safeParse([]).error?.issues[0]?.message).toBe(
      'The request body must be a JSON object.',
    );
  });

  it('takes the internal tip in cents as amountCents, its one name (the former tipAmount is dropped)', () => {
    const base = {
      questionId: '11111111-1111-4111-8111-111111111111',
      questionData: {},
      askerUserId: null,
      currency: 'usd',
      paymentRef: 'pi_1',
    };
    expect(ZSubmitTippedQuestionRequest.parse({ ...base, amountCents: 500 }).amountCents).toBe(500);
    expect(ZSubmitTippedQuestionRequest.parse({ ...base, tipAmount: 500 })).not.toHaveProperty('tipAmount');
  });

  it('keeps the spec message of a PATCH with a non-boolean flag', async () => {
    const { ZPatchQuestionBody } = await import('../questions.js');
    expect(ZPatchQuestionBody.safeParse({ displayOnProfile: 'yes' }).error?.issues[0]?.message).toBe(
      PATCH_MESSAGES.nothing,
    );
  });
});

describe("identity's user snapshot", () => {
  it('reads emailVerified as false in events recorded before it existed', () => {
    const snapshot = {
      userId: '11111111-1111-4111-8111-111111111111',
      username: 'ada',
      name: 'Ada',
      email: 'ada@example.com',
      bio: '',
      avatarUrl: '',
      brandColorMain: '#000000',
      brandColorLight: '#ffffff',
      archiveProfile: false,
    };
    expect(ZUserSnapshot.parse(snapshot).emailVerified).toBe(false);
    expect(ZUserSnapshot.parse({ ...snapshot, emailVerified: true }).emailVerified).toBe(true);
  });
});
