import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMailbox, type StoredMail } from '@ques/kit';
import { eventually, infraGate, natsTestUrl, postgresServerUrl } from '@ques/kit/testing';
import { INTERNAL_HEADERS, callApi, guestQuestion, registerUser, startHarness, type Harness } from '../test/harness.js';

const natsUrl = await natsTestUrl();
const run = infraGate(!!(await postgresServerUrl()) && !!natsUrl, 'Postgres and NATS JetStream');

type User = Awaited<ReturnType<typeof registerUser>>;

const STATUS_LINK = /https:\/\/ques\.test\/q\/[A-Za-z0-9_-]{43}/;

/** Issue 28: every question mail is a branded letter (HTML + text); the asker's receipt follows ADR 0053. */
describe.runIf(run)("the asker's receipt and the owner's mail, as HTML and text (issue 28)", () => {
  let h: Harness;
  let mira: User;
  let sam: User;

  const mailsTo = (to: string) => readMailbox(h.mailer.dir).filter((m) => m.to === to);
  const mailTo = async (to: string, subject: RegExp): Promise<StoredMail> => {
    await eventually(async () => mailsTo(to).some((m) => subject.test(m.subject)));
    return mailsTo(to).find((m) => subject.test(m.subject))!;
  };
  /** Both parts of a letter, each checked for `fragments` (the HTML escapes `&` and friends). */
  const expectBothParts = (mail: StoredMail, fragments: (string | RegExp)[]) => {
    expect(mail.contentType).toBe('multipart/alternative');
    expect(mail.html).toBeDefined();
    const html = mail.html!.replace(/&amp;/g, '&').replace(/&#x27;/g, "'").replace(/&quot;/g, '"');
    for (const f of fragments) {
      if (typeof f === 'string') {
        expect(mail.text).toContain(f);
        expect(html).toContain(f);
      } else {
        expect(mail.text).toMatch(f);
        expect(html).toMatch(f);
      }
    }
  };

  beforeAll(async () => {
    h = await startHarness(natsUrl!);
    mira = await registerUser(h, {
      username: 'mira',
      name: 'Mira Castell',
      email: 'mira@example.com',
      emailVerified: true,
      brandColorMain: '#0f766e',
      brandColorLight: '#ccfbf1',
    });
    sam = await registerUser(h, { username: 'sam', name: 'Sam Signed', email: 'sam@example.com', emailVerified: true });
  });
  afterAll(async () => h?.close());

  it("a tipped guest question: the receipt names the title, the owner, $5.00 held, the split, the release date and the link, in Mira's colours", async () => {
    const questionId = randomUUID();
    const submitted = await h.a.app.inject({
      method: 'POST',
      url: '/internal/questions/tipped',
      headers: INTERNAL_HEADERS,
      payload: {
        questionId,
        questionData: { question: 'Which loom should I buy?', detail: 'Secret detail', toUserId: mira.id, agreedToTerms: true, askedName: 'Tia', askedEmail: 'tia@example.com' },
        askerUserId: null,
        amountCents: 500,
        currency: 'usd',
        paymentRef: `pi_${questionId}`,
      },
    });
    expect(submitted.statusCode).toBe(201);
    // Nothing is mailed before the hold is recorded.
    expect(mailsTo('tia@example.com')).toHaveLength(0);
    const authorizedAt = h.now();
    await h.publish('payments', 'TipAuthorized', { questionId, paymentRef: `pi_${questionId}`, amount: 500, currency: 'usd', authorizedAt: authorizedAt.toISOString() }, `checkout-${questionId}`);

    const receipt = await mailTo('tia@example.com', /^Your question to Mira Castell on Ques$/);
    expectBothParts(receipt, [
      'Which loom should I buy?',
      'Mira Castell',
      'Amount held',
      '$5.00',
      'Mira Castell receives $4.50 · Ques keeps $0.50 (10 %)',
      'Released if unanswered by',
      / UTC\b/,
      STATUS_LINK,
      'Follow your question',
    ]);
    // The release date is the 5-day window's end, in UTC with the zone named.
    const row = await h.database.db.selectFrom('questions').select('answer_deadline').where('id', '=', questionId).executeTakeFirstOrThrow();
    const day = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' }).format(row.answer_deadline!);
    expect(receipt.text).toContain(day);
    expect(receipt.text.split('\n').slice(0, 8).join('\n')).toContain('Question: Which loom should I buy?');
    expect(receipt.html).toContain('background-color:#0f766e');
    expect(receipt.text).not.toContain('Secret detail');
    expect(receipt.messageId).toBe(`<status-link.${questionId}@ques>`);

    // The owner's mail: HTML and text, with the amount and what they receive.
    const owner = await mailTo('mira@example.com', /\$5\.00 tip from Tia/);
    expectBothParts(owner, ['Which loom should I buy?', '$5.00', '$4.50 when you answer', 'https://ques.test/admin']);
    expect(owner.html).toContain('background-color:#0f766e');
  });

  it("a free guest question: the receipt to the typed address holds nothing the asker typed (no title, no money lines)", async () => {
    const asked = await callApi(h, 'POST', '/api/questions', guestQuestion(mira, 'Buy cheap pills at evil.test', { askedName: 'Spam Sender', askedEmail: 'victim@example.com' }));
    expect(asked.status).toBe(201);
    const receipt = await mailTo('victim@example.com', /^Your question to Mira Castell on Ques$/);
    expectBothParts(receipt, ['Mira Castell', 'Pending', STATUS_LINK, 'If you did not ask a question on Ques, ignore this e-mail.']);
    for (const typed of ['pills', 'evil.test', 'Spam Sender']) {
      expect(receipt.text).not.toContain(typed);
      expect(receipt.html).not.toContain(typed);
    }
    expect(receipt.text).not.toMatch(/Amount held|Fee split|\$/);
  });

  it('a signed-in asker with a proven address gets the receipt too, with their title and a status link', async () => {
    const asked = await callApi(h, 'POST', '/api/questions', { question: 'How do you plan a week?', detail: '', tip: 0, toUserId: mira.id, toUsername: 'mira', agreedToTerms: true }, sam.token);
    expect(asked.status).toBe(201);
    const receipt = await mailTo('sam@example.com', /^Your question to Mira Castell on Ques$/);
    expectBothParts(receipt, ['Question', 'How do you plan a week?', 'Mira Castell', STATUS_LINK]);
    expect(receipt.text).not.toContain('Amount held');
    const token = STATUS_LINK.exec(receipt.text)![0].split('/q/')[1]!;
    const page = await callApi(h, 'GET', `/api/question-status/${token}`);
    expect(page.status).toBe(200);
    expect(page.body.question).toBe('How do you plan a week?');
  });
});
