import { IDENTITY_MESSAGES } from './core/identity.js';
import { describe, expect, it } from 'vitest';
import {
  ANSWER_MESSAGES,
  ASK_MESSAGES,
  checkAnswerBody,
  checkArchiveCuratedEdit,
  checkArchiveCurateDraft,
  checkAskDraft,
  checkCurateDraft,
  checkTipCents,
  checkTipDollars,
  CURATE_MESSAGES,
  normalizeTags,
  questionSlug,
  ZListQuestionsQuery,
  checkPatchBody,
  PATCH_MESSAGES,
} from './questions.js';
import { OPS_MESSAGES } from './ops.js';

const toUserId = '11111111-1111-4111-8111-111111111111';
const guest = {
  question: 'Why?',
  agreedToTerms: true,
  askedName: 'Grace',
  askedEmail: 'Grace@Example.com',
  toUserId,
};
const messageOf = (r: { ok: boolean; message?: string }) => (r.ok ? null : r.message);

describe('ask rules (spec §5, in order)', () => {
  it('requires a title after trimming, before anything else', () => {
    expect(messageOf(checkAskDraft({}, { signedIn: false }))).toBe(ASK_MESSAGES.titleRequired);
    expect(messageOf(checkAskDraft({ ...guest, question: '   ' }, { signedIn: true }))).toBe(
      ASK_MESSAGES.titleRequired,
    );
  });
  it('asks guests to accept the terms, then for name and e-mail', () => {
    expect(messageOf(checkAskDraft({ question: 'Why?' }, { signedIn: false }))).toBe(ASK_MESSAGES.mustAgree);
    expect(messageOf(checkAskDraft({ ...guest, agreedToTerms: 'yes' }, { signedIn: false }))).toBe(
      ASK_MESSAGES.mustAgree,
    );
    expect(messageOf(checkAskDraft({ ...guest, askedName: ' ' }, { signedIn: false }))).toBe(
      ASK_MESSAGES.nameAndEmail,
    );
    expect(messageOf(checkAskDraft({ ...guest, askedEmail: '' }, { signedIn: false }))).toBe(
      ASK_MESSAGES.nameAndEmail,
    );
    expect(messageOf(checkAskDraft({ ...guest, askedEmail: 'nope' }, { signedIn: false }))).toBe(
      ASK_MESSAGES.invalidEmail,
    );
  });
  it('does not ask signed-in users for terms, name or e-mail', () => {
    const r = checkAskDraft({ question: ' Why? ', detail: ' more ', toUserId }, { signedIn: true });
    expect(r).toEqual({
      ok: true,
      value: { question: 'Why?', detail: 'more', guest: null, toUserId, isPrivate: false, statusToken: null },
    });
  });
  it("carries the status link the asker's browser made, only when it has a token's shape (issue 28)", () => {
    const ask = (statusToken: unknown) =>
      checkAskDraft({ question: 'Q', toUserId, statusToken }, { signedIn: true });
    const token = 'A'.repeat(42) + '_';
    expect(
      [ask(token), ask('short'), ask(`${token}x`), ask(42), ask(undefined)].map(
        (r) => r.ok && r.value.statusToken,
      ),
    ).toEqual([token, null, null, null, null]);
  });
  it("carries the asker's consent: only `isPrivate: true` is private (issue 14)", () => {
    const ask = (isPrivate: unknown) =>
      checkAskDraft({ question: 'Q', toUserId, isPrivate }, { signedIn: true });
    expect([ask(true), ask(false), ask(undefined), ask('yes')].map((r) => r.ok && r.value.isPrivate)).toEqual(
      [true, false, false, false],
    );
  });
  it('refuses a guest name with line breaks or control characters (issue 33 finding 4: names reach mails as plain text)', () => {
    for (const askedName of ['Grace\nBcc: x@example.com', 'Grace\u0000', 'Grace\u202e'])
      expect(messageOf(checkAskDraft({ ...guest, askedName }, { signedIn: false }))).toBe(
        IDENTITY_MESSAGES.nameControl,
      );
  });

  it('takes yourName/yourEmail when askedName/askedEmail are absent, and lowercases the e-mail', () => {
    const r = checkAskDraft(
      { question: 'Why?', agreedToTerms: true, yourName: 'Grace', yourEmail: 'G@X.IO', toUserId },
      { signedIn: false },
    );
    expect(r.ok && r.value.guest).toEqual({ name: 'Grace', email: 'g@x.io' });
  });
  it('needs the recipient id', () => {
    expect(messageOf(checkAskDraft({ ...guest, toUserId: undefined }, { signedIn: false }))).toBe(
      ASK_MESSAGES.recipientMissing,
    );
    expect(messageOf(checkAskDraft({ ...guest, toUserId: 'ada' }, { signedIn: false }))).toBe(
      ASK_MESSAGES.recipientMissing,
    );
  });
  it('bounds lengths', () => {
    expect(messageOf(checkAskDraft({ ...guest, question: 'x'.repeat(301) }, { signedIn: false }))).toBe(
      'Question title must be at most 300 characters',
    );
    expect(messageOf(checkAskDraft({ ...guest, detail: 'x'.repeat(5001) }, { signedIn: false }))).toBe(
      'Description must be at most 5000 characters',
    );
  });
});

describe('tip rules', () => {
  it('reads dollars: absent or 0 is free, non-amounts ask for a tip, below 1 is a penny', () => {
    expect(checkTipDollars(undefined)).toEqual({ ok: true, value: 0 });
    expect(checkTipDollars(0)).toEqual({ ok: true, value: 0 });
    expect(checkTipDollars('5')).toEqual({ ok: true, value: 5 });
    for (const bad of [null, '', 'abc', -1, Number.NaN])
      expect(messageOf(checkTipDollars(bad))).toBe(ASK_MESSAGES.selectTip);
    expect(messageOf(checkTipDollars(0.5))).toBe(ASK_MESSAGES.penny);
    expect(messageOf(checkTipDollars(10_001))).toBe(ASK_MESSAGES.tipTooLarge);
  });
  it('reads cents the same way', () => {
    expect(checkTipCents(500)).toEqual({ ok: true, value: 500 });
    expect(messageOf(checkTipCents(99))).toBe(ASK_MESSAGES.penny);
    expect(messageOf(checkTipCents(undefined))).toBe(ASK_MESSAGES.selectTip);
    expect(messageOf(checkTipCents(1.5))).toBe(ASK_MESSAGES.selectTip);
  });
});

describe('curate and answer rules', () => {
  it('requires title then answer on the curate form, shows on profile by default', () => {
    expect(messageOf(checkCurateDraft({ answer: 'a' }))).toBe(CURATE_MESSAGES.titleRequired);
    expect(messageOf(checkCurateDraft({ question: 'q', answer: ' ' }))).toBe(CURATE_MESSAGES.answerRequired);
    expect(messageOf(checkCurateDraft({ question: 'q', answer: 'a', tip: 5 }))).toBe(CURATE_MESSAGES.noTip);
    const r = checkCurateDraft({ question: 'q', answer: 'a', tags: ['X', ' x ', 'y'] });
    expect(r.ok && r.value).toMatchObject({
      displayOnProfile: true,
      tags: ['x', 'y'],
      source: '',
      detail: '',
    });
  });
  it("requires a source on an archive's curated Q&A (issue 18), after the curate form's own rules", () => {
    expect(messageOf(checkArchiveCurateDraft({ answer: 'a' }))).toBe(CURATE_MESSAGES.titleRequired);
    expect(messageOf(checkArchiveCurateDraft({ question: 'q', answer: '' }))).toBe(
      CURATE_MESSAGES.answerRequired,
    );
    expect(messageOf(checkArchiveCurateDraft({ question: 'q', answer: 'a', source: '  ' }))).toBe(
      OPS_MESSAGES.sourceRequired,
    );
    const r = checkArchiveCurateDraft({ question: 'q', answer: 'a', source: ' Radio 4, 12:30 ' });
    expect(r.ok && r.value.source).toBe('Radio 4, 12:30');
    expect(messageOf(checkArchiveCuratedEdit({ answer: 'a' }))).toBe(OPS_MESSAGES.sourceRequired);
    expect(messageOf(checkArchiveCuratedEdit({ answer: ' ', source: 's' }))).toBe(
      CURATE_MESSAGES.answerRequired,
    );
    expect(checkArchiveCuratedEdit({ answer: 'a', source: 's', tags: ['X'] })).toEqual({
      ok: true,
      value: { answer: 'a', source: 's', tags: ['x'] },
    });
  });
  it('requires a non-blank answer and keeps tags/visibility unset when not sent', () => {
    expect(messageOf(checkAnswerBody({ answer: '  ' }))).toBe(ANSWER_MESSAGES.answerRequired);
    expect(checkAnswerBody({ answer: ' ok ', skipNotify: true })).toEqual({
      ok: true,
      value: {
        answer: 'ok',
        tags: null,
        displayOnProfile: null,
        replierName: null,
        skipNotify: true,
        redaction: null,
      },
    });
  });
  it('takes the public wording the owner chose (issue 14), trimmed; blank means as asked', () => {
    const r = checkAnswerBody({ answer: 'ok', publicQuestion: ' Fair rent? ', publicDetail: ' no names ' });
    expect(r.ok && r.value.redaction).toEqual({ question: 'Fair rent?', detail: 'no names' });
    const blank = checkAnswerBody({ answer: 'ok', publicQuestion: '  ' });
    expect(blank.ok && blank.value.redaction).toBeNull();
  });
});

describe('tags, slugs, list queries and patches', () => {
  it('trims, lowercases, drops empty and duplicate tags, and bounds them', () => {
    expect(normalizeTags([' Rust ', 'rust', '', 'ASYNC'])).toEqual({ ok: true, value: ['rust', 'async'] });
    expect(messageOf(normalizeTags('rust'))).toBe('Tags must be a list of words');
    expect(messageOf(normalizeTags(['x'.repeat(41)]))).toBe('Tags must be at most 40 characters');
    expect(messageOf(normalizeTags(Array.from({ length: 21 }, (_, i) => `t${i}`)))).toBe('At most 20 tags');
  });
  it('slugs a question like spec §2', () => {
    expect(questionSlug('How do I start, really?')).toBe('how-do-i-start-really');
  });
  it('parses list queries with a default page and bounded limit', () => {
    expect(ZListQuestionsQuery.parse({ username: 'Ada', role: 'receiver' })).toEqual({
      username: 'ada',
      role: 'receiver',
      limit: 100,
    });
    expect(ZListQuestionsQuery.safeParse({ limit: '0' }).error?.issues[0]?.message).toBe(
      'limit must be between 1 and 100',
    );
  });
  it('accepts exactly the two PATCH shapes', () => {
    expect(checkPatchBody({ deletedByReceiver: true })).toEqual({
      ok: true,
      value: { deletedByReceiver: true },
    });
    expect(checkPatchBody({ displayOnProfile: false })).toEqual({
      ok: true,
      value: { displayOnProfile: false },
    });
    expect(messageOf(checkPatchBody({}))).toBe(PATCH_MESSAGES.nothing);
    expect(messageOf(checkPatchBody({ displayOnProfile: 'no' }))).toBe(PATCH_MESSAGES.nothing);
    expect(messageOf(checkPatchBody({ deletedByReceiver: false }))).toBe(PATCH_MESSAGES.noRestore);
  });
});
