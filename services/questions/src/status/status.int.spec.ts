import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUESTION_MESSAGES, STATUS_MESSAGES } from '@ques/contracts';
import { readMailbox } from '@ques/kit';
import { eventually, infraGate, natsTestUrl, postgresServerUrl } from '@ques/kit/testing';
import { INTERNAL_HEADERS, callApi, guestQuestion, registerUser, startHarness, type ApiMethod, type Harness } from '../test/harness.js';

const natsUrl = await natsTestUrl();
const run = infraGate(!!(await postgresServerUrl()) && !!natsUrl, 'Postgres and NATS JetStream');

type User = Awaited<ReturnType<typeof registerUser>>;

describe.runIf(run)(
  "asker trust: the private status page, confirmed guest e-mails, the asker's consent (issue 14)",
  () => {
    let h: Harness;
    let ada: User;
    let sam: User;

    const api = (method: ApiMethod, url: string, body?: unknown, token?: string) => callApi(h, method, url, body, token);
    const guestAsk = (question: string, email: string, over: Record<string, unknown> = {}) =>
      api(
        'POST',
        '/api/questions',
        guestQuestion(ada, question, {
          detail: `Secret detail of ${question}`,
          askedName: 'Mallory Typed-This',
          askedEmail: email,
          ...over,
        }),
      );
    const mailsTo = (to: string) => readMailbox(h.mailer.dir).filter((m) => m.to === to);
    /** The status token mailed to `email` (waits for the mail). */
    const mailedToken = async (email: string): Promise<string> => {
      await eventually(async () => mailsTo(email).some((m) => m.subject.startsWith('Your question to')));
      const mail = mailsTo(email).find((m) => m.subject.startsWith('Your question to'))!;
      const match = /https:\/\/ques\.test\/q\/([A-Za-z0-9_-]+)/.exec(mail.text);
      expect(match).not.toBeNull();
      return match![1]!;
    };
    const answer = (id: string, text: string, over: Record<string, unknown> = {}) =>
      api('PUT', `/api/questions/${id}/answer`, { answer: text, tags: [], ...over }, ada.token);

    beforeAll(async () => {
      h = await startHarness(natsUrl!);
      ada = await registerUser(h, { username: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' });
      sam = await registerUser(h, {
        username: 'sam',
        name: 'Sam Signed',
        email: 'sam@example.com',
        emailVerified: true,
      });
    });
    afterAll(async () => h?.close());

    it('mails a guest an unguessable link (no text they typed), stored only as its SHA-256', async () => {
      const asked = await guestAsk('Which loom is best?', 'link@example.com');
      expect(asked.status).toBe(201);
      const token = await mailedToken('link@example.com');
      expect(token).toHaveLength(43); // 32 random bytes: 256 bits
      const mail = mailsTo('link@example.com')[0]!;
      expect(mail.text).toContain('Ada Lovelace');
      expect(mail.text).toContain('Pending');
      expect(mail.text).not.toContain('loom');
      expect(mail.text).not.toContain('Secret detail');
      expect(mail.text).not.toContain('Mallory');
      expect(mail.subject).not.toContain('loom');

      const links = await h.database.db
        .selectFrom('status_links')
        .selectAll()
        .where('question_id', '=', asked.body._id)
        .execute();
      expect(links).toHaveLength(1);
      expect(links[0]!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
      // The clear token is nowhere in the database.
      const dump = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM status_links WHERE token_hash = ${token}`.execute(h.database.db);
      expect(dump.rows[0]!.n).toBe(0);

      const page = await api('GET', `/api/question-status/${token}`);
      expect(page.status).toBe(200);
      // The asker's page alone: never stored by a cache, never indexed (issue 33 finding 6).
      expect([page.headers['cache-control'], page.headers['x-robots-tag']]).toEqual(['no-store', 'noindex, nofollow']);
      expect(page.body).toMatchObject({
        questionId: asked.body._id,
        question: 'Which loom is best?',
        detail: 'Secret detail of Which loom is best?',
        toName: 'Ada Lovelace',
        status: 'Pending',
        tip: null,
        emailConfirmed: false,
      });
    });

    it('answers 404 for an unknown, malformed or foreign token, and reaches only its own question', async () => {
      const first = await guestAsk('First of two?', 'two@example.com');
      const second = await guestAsk('Second of two?', 'other@example.com');
      const tokenA = await mailedToken('two@example.com');
      const tokenB = await mailedToken('other@example.com');
      expect(tokenA).not.toBe(tokenB);
      expect((await api('GET', `/api/question-status/${tokenA}`)).body.questionId).toBe(first.body._id);
      expect((await api('GET', `/api/question-status/${tokenB}`)).body.questionId).toBe(second.body._id);

      const unknown = randomBytes(32).toString('base64url');
      for (const bad of [unknown, 'short', first.body._id, `${tokenA}x`, tokenA.slice(0, 42), '%00']) {
        const res = await api('GET', `/api/question-status/${encodeURIComponent(bad)}`);
        expect(res.status).toBe(404);
        expect(res.body.message).toBe(STATUS_MESSAGES.notFound);
        expect((await api('POST', `/api/question-status/${encodeURIComponent(bad)}/withdraw`)).status).toBe(
          404,
        );
      }
      // The stored hash is not a token either.
      const [row] = await h.database.db
        .selectFrom('status_links')
        .select('token_hash')
        .where('question_id', '=', first.body._id)
        .execute();
      expect((await api('GET', `/api/question-status/${row!.token_hash}`)).status).toBe(404);
    });

    it('mails the answer to a guest only once the link was opened', async () => {
      const asked = await guestAsk('Will you mail my answer?', 'later@example.com');
      const token = await mailedToken('later@example.com');
      expect((await answer(asked.body._id, 'Only once you confirm.')).status).toBe(200);
      // A later question's mail is out: the answer's would have been queued before it.
      await guestAsk('Marker after the answer?', 'marker-later@example.com');
      await mailedToken('marker-later@example.com');
      await eventually(async () => {
        const jobs = await h.database.db
          .selectFrom('scheduled_jobs')
          .select('id')
          .where('kind', '=', 'send-mail')
          .where('status', '=', 'pending')
          .execute();
        return jobs.length === 0;
      });
      expect(mailsTo('later@example.com').filter((m) => m.subject.includes('answered'))).toHaveLength(0);

      const opened = await api('POST', `/api/question-status/${token}/confirm`);
      expect(opened.status).toBe(200);
      expect(opened.body).toMatchObject({
        status: 'Answered',
        answer: 'Only once you confirm.',
        emailConfirmed: true,
      });
      await eventually(async () =>
        mailsTo('later@example.com').some((m) => m.subject === 'Ada Lovelace answered your question'),
      );
      const answered = mailsTo('later@example.com').find((m) => m.subject.includes('answered'))!;
      expect(answered.text).toContain('Only once you confirm.');
      // Opening it again sends nothing more.
      await api('POST', `/api/question-status/${token}/confirm`);
      const confirmedFirst = await guestAsk('Confirmed before the answer?', 'early@example.com');
      const early = await mailedToken('early@example.com');
      await api('POST', `/api/question-status/${early}/confirm`);
      await answer(confirmedFirst.body._id, 'Straight to you.');
      await eventually(async () => mailsTo('early@example.com').some((m) => m.subject.includes('answered')));
      expect(mailsTo('later@example.com').filter((m) => m.subject.includes('answered'))).toHaveLength(1);
    });

    it('withdraws from the page once; twice or after an answer is a clear 409 that changes nothing', async () => {
      const asked = await guestAsk('Withdraw me?', 'withdraw@example.com');
      const token = await mailedToken('withdraw@example.com');
      const done = await api('POST', `/api/question-status/${token}/withdraw`);
      expect(done.status).toBe(200);
      expect(done.body.status).toBe('Withdrawn');
      const twice = await api('POST', `/api/question-status/${token}/withdraw`);
      expect(twice).toMatchObject({ status: 409, body: { message: QUESTION_MESSAGES.alreadyWithdrawn } });

      const other = await guestAsk('Answered first?', 'answered-first@example.com');
      const otherToken = await mailedToken('answered-first@example.com');
      await answer(other.body._id, 'Too late to withdraw.');
      const late = await api('POST', `/api/question-status/${otherToken}/withdraw`);
      expect(late).toMatchObject({
        status: 409,
        body: { message: QUESTION_MESSAGES.answeredCannotWithdraw },
      });
      expect((await api('GET', `/api/question-status/${otherToken}`)).body.status).toBe('Answered');
      expect(
        await h.database.db
          .selectFrom('events')
          .select('event_id')
          .where('stream_id', '=', `question-${asked.body._id}`)
          .where('type', '=', 'QuestionWithdrawn')
          .execute(),
      ).toHaveLength(1);
    });

    it('shows a tip held with its release date, and released after a withdrawal', async () => {
      const questionId = randomUUID();
      const submitted = await h.a.app.inject({
        method: 'POST',
        url: '/internal/questions/tipped',
        headers: INTERNAL_HEADERS,
        payload: {
          questionId,
          questionData: {
            question: 'Tipped and tracked?',
            toUserId: ada.id,
            agreedToTerms: true,
            askedName: 'Tia',
            askedEmail: 'tip@example.com',
          },
          askerUserId: null,
          amountCents: 500,
          currency: 'usd',
          paymentRef: `pi_${questionId}`,
        },
      });
      expect(submitted.statusCode).toBe(201);
      await h.publish(
        'payments',
        'TipAuthorized',
        {
          questionId,
          paymentRef: `pi_${questionId}`,
          amount: 500,
          currency: 'usd',
          authorizedAt: h.now().toISOString(),
        },
        `checkout-${questionId}`,
      );
      const token = await mailedToken('tip@example.com');
      // ADR 0053: a tipped question's receipt names its title (the card holder is accountable for it).
      expect(mailsTo('tip@example.com')[0]!.text).toContain('Tipped and tracked');
      const page = await api('GET', `/api/question-status/${token}`);
      expect(page.body.status).toBe('Pending');
      expect(page.body.tip).toMatchObject({
        amountCents: 500,
        currency: 'usd',
        state: 'held',
        chargedAt: null,
      });
      expect(new Date(page.body.tip.releaseAt).getTime()).toBeGreaterThan(h.now().getTime() + 4 * 86_400_000);
      const withdrawn = await api('POST', `/api/question-status/${token}/withdraw`);
      expect(withdrawn.body).toMatchObject({ status: 'Withdrawn', tip: { state: 'released' } });
    });

    it("keeps a private question off every public surface whatever the owner toggles, and shows it on the asker's page", async () => {
      const asked = await guestAsk('Private: only for me?', 'private@example.com', { isPrivate: true });
      expect(asked.status).toBe(201);
      expect(asked.body.isPrivate).toBe(true);
      const token = await mailedToken('private@example.com');
      expect((await answer(asked.body._id, 'A private answer.', { displayOnProfile: true })).status).toBe(
        200,
      );
      await api('PATCH', `/api/questions/${asked.body._id}`, { displayOnProfile: true }, ada.token);

      const list = await api('GET', '/api/questions?username=ada&role=receiver');
      expect(list.body.map((q: { id: string }) => q.id)).not.toContain(asked.body._id);
      // Nor in the sitemap.
      const sitemap = await api('GET', '/api/sitemap/answers?limit=100');
      expect(sitemap.status).toBe(200);
      expect(sitemap.body.map((a: { id: string }) => a.id)).not.toContain(asked.body._id);
      expect((await api('GET', `/api/questions/${asked.body._id}`)).status).toBe(404);
      expect((await api('GET', `/api/questions/${asked.body._id}`, undefined, sam.token)).status).toBe(404);
      // The owner sees it, flagged private.
      const owner = await api('GET', `/api/questions/${asked.body._id}`, undefined, ada.token);
      expect(owner.body).toMatchObject({ isPrivate: true, displayOnProfile: true });
      // A public twin is on the list (the filter is the consent, not something else).
      const open = await guestAsk('Public: for everyone?', 'public@example.com');
      await answer(open.body._id, 'A public answer.');
      expect(
        (await api('GET', '/api/questions?username=ada&role=receiver')).body.map((q: { id: string }) => q.id),
      ).toContain(open.body._id);

      const page = await api('GET', `/api/question-status/${token}`);
      expect(page.body).toMatchObject({
        status: 'Answered',
        answer: 'A private answer.',
        isPrivate: true,
        isPublic: false,
      });
    });

    it('"already answered?": up to 3 public answers of this owner only, ranked, never private or pending ones', async () => {
      const bob = await registerUser(h, { username: 'bobsim', name: 'Bob', email: 'bobsim@example.com' });
      const curate = (owner: User, question: string, answerText: string, over: Record<string, unknown> = {}) =>
        api('POST', '/api/questions', { isCurated: true, question, answer: answerText, ...over }, owner.token);
      for (const [q, a] of [
        ['How do I price a consulting workshop?', 'Per day, never per hour.'],
        ['Pricing for a workshop series?', 'A discount from the third workshop.'],
        ['Should workshops be recorded?', 'Only with consent.'],
        ['What about workshop catering?', 'Keep it light.'],
        ['Favourite loom?', 'The Jacquard loom.'],
      ])
        expect((await curate(ada, q!, a!)).status).toBe(201);
      await curate(ada, 'Hidden workshop pricing?', 'Not shown.', { displayOnProfile: false });
      await curate(bob, 'Workshop pricing at Bob?', 'Bob prices workshops differently.');
      const pendingOne = await guestAsk('Workshop pricing pending?', 'pending-sim@example.com');
      expect(pendingOne.status).toBe(201);
      const privateOne = await guestAsk('Private workshop pricing?', 'private-sim@example.com', { isPrivate: true });
      await answer(privateOne.body._id, 'Private workshop price.');

      const similar = await api('GET', `/api/asking/similar/ada?q=${encodeURIComponent('workshop pric')}`);
      expect(similar.status).toBe(200);
      expect(similar.body).toHaveLength(3);
      const titles = similar.body.map((a: { question: string }) => a.question);
      expect(titles.slice(0, 2).sort()).toEqual([
        'How do I price a consulting workshop?',
        'Pricing for a workshop series?',
      ]);
      for (const t of titles) expect(t).not.toMatch(/Hidden|Bob|pending|Private/);
      expect(Object.keys(similar.body[0]).sort()).toEqual(['answer', 'answeredAt', 'id', 'question', 'toUsername']);
      // The answer text matches too.
      const byAnswer = await api('GET', '/api/asking/similar/ada?q=jacquard');
      expect(byAnswer.body.map((a: { question: string }) => a.question)).toEqual(['Favourite loom?']);
      // A typo in every word: full-text search finds nothing, the trigram fallback (pg_trgm) still does.
      const typos = await api('GET', `/api/asking/similar/ada?q=${encodeURIComponent('how to prise a consultin workshp')}`);
      expect(typos.body.map((a: { question: string }) => a.question)[0]).toBe('How do I price a consulting workshop?');
      for (const t of typos.body.map((a: { question: string }) => a.question)) expect(t).not.toMatch(/Hidden|Bob|pending|Private/);
      expect(
        (await api('GET', '/api/asking/similar/ada?q=favorite%20lom')).body.map((a: { question: string }) => a.question),
      ).toEqual(['Favourite loom?']);
      // Nothing close at all: still nothing.
      expect((await api('GET', '/api/asking/similar/ada?q=zebra%20quartz')).body).toEqual([]);
      // Too little to search, or only operators: an empty list; too long: 400, never a 5xx.
      expect((await api('GET', '/api/asking/similar/ada?q=a')).body).toEqual([]);
      expect((await api('GET', '/api/asking/similar/ada?q=%27%26%7C%21%3A*')).body).toEqual([]);
      expect((await api('GET', '/api/asking/similar/nobody-here?q=workshop')).body).toEqual([]);
      expect((await api('GET', `/api/asking/similar/ada?q=${'x'.repeat(301)}`)).status).toBe(400);
    });

    it('publishes the redacted wording; the original stays with the asker and the owner', async () => {
      const asked = await guestAsk('I am Jane Roe from 12 Elm St, what rent is fair?', 'redact@example.com');
      const token = await mailedToken('redact@example.com');
      const answered = await answer(asked.body._id, 'Compare three listings.', {
        publicQuestion: 'What rent is fair?',
        publicDetail: '',
      });
      expect(answered.status).toBe(200);
      expect(answered.body).toMatchObject({
        question: 'I am Jane Roe from 12 Elm St, what rent is fair?',
        publicQuestion: 'What rent is fair?',
        publicDetail: '',
      });
      const asGuest = await api('GET', `/api/questions/${asked.body._id}`);
      expect(asGuest.body).toMatchObject({ question: 'What rent is fair?', detail: '' });
      const list = await api('GET', '/api/questions?username=ada&role=receiver');
      const listed = list.body.find((q: { id: string }) => q.id === asked.body._id);
      expect(listed).toMatchObject({ question: 'What rent is fair?', detail: '' });
      expect(JSON.stringify(list.body)).not.toContain('Elm St');
      const sitemap = await api('GET', '/api/sitemap/answers?limit=100');
      expect(JSON.stringify(sitemap.body)).not.toContain('Elm');
      expect(JSON.stringify(sitemap.body)).toContain('What rent is fair?');
      const similar = await api('GET', '/api/asking/similar/ada?q=elm%20roe');
      expect(JSON.stringify(similar.body)).not.toContain('Elm');
      const page = await api('GET', `/api/question-status/${token}`);
      expect(page.body).toMatchObject({
        question: 'I am Jane Roe from 12 Elm St, what rent is fair?',
        publicQuestion: 'What rent is fair?',
      });
    });

    it('gives a signed-in asker the same page from Questions Asked, and nobody else', async () => {
      const asked = await api(
        'POST',
        '/api/questions',
        { question: 'Signed-in status?', detail: '', tip: 0, toUserId: ada.id },
        sam.token,
      );
      expect(asked.status).toBe(201);
      const link = await api('POST', `/api/questions/${asked.body._id}/status-link`, undefined, sam.token);
      expect(link.status).toBe(200);
      expect(link.body.url).toBe(`/q/${link.body.token}`);
      expect((await api('GET', `/api/question-status/${link.body.token}`)).body).toMatchObject({
        questionId: asked.body._id,
        emailConfirmed: true,
      });
      // The owner is a party but not the asker: 403; a stranger: 404.
      expect(
        (await api('POST', `/api/questions/${asked.body._id}/status-link`, undefined, ada.token)).status,
      ).toBe(403);
      const eve = await registerUser(h, { username: 'eve', name: 'Eve', email: 'eve@example.com' });
      expect(
        (await api('POST', `/api/questions/${asked.body._id}/status-link`, undefined, eve.token)).status,
      ).toBe(404);
      expect((await api('POST', `/api/questions/${asked.body._id}/status-link`)).status).toBe(401);
    });

    describe('the order page (issue 28)', () => {
      const browserToken = () => randomBytes(32).toString('base64url');
      let mira: User;
      beforeAll(async () => {
        mira = await registerUser(h, {
          username: 'mira',
          name: 'Mira Castell',
          email: 'mira@example.com',
          brandColorMain: '#0E7C66',
          brandColorLight: '#E6F4F0',
          avatarUrl: '/images/avatars/mira/abc.webp',
        });
      });
      /** Payments' hand-over at checkout, with the link the asker's browser made. */
      const submitTipped = (questionId: string, token: string, over: Record<string, unknown> = {}) =>
        h.a.app.inject({
          method: 'POST',
          url: '/internal/questions/tipped',
          headers: INTERNAL_HEADERS,
          payload: {
            questionId,
            questionData: {
              question: 'Will you review my loom order?',
              toUserId: mira.id,
              agreedToTerms: true,
              askedName: 'Ola',
              askedEmail: 'ola@example.com',
              statusToken: token,
            },
            askerUserId: null,
            amountCents: 500,
            currency: 'usd',
            paymentRef: `pi_${questionId}`,
            ...over,
          },
        });
      const authorize = (questionId: string) =>
        h.publish(
          'payments',
          'TipAuthorized',
          { questionId, paymentRef: `pi_${questionId}`, amount: 500, currency: 'usd', authorizedAt: h.now().toISOString() },
          `checkout-${questionId}`,
        );
      const steps = (page: { timeline: { step: string }[] }) => page.timeline.map((s) => s.step);

      it("opens the browser's link at once (Confirming until the hold is recorded), in the owner's colours, then the timeline to charged and the public answer's path", async () => {
        const questionId = randomUUID();
        const token = browserToken();
        expect((await submitTipped(questionId, token)).statusCode).toBe(201);
        // Back from checkout before the provider's authorization reached questions: the page exists.
        const confirming = await api('GET', `/api/question-status/${token}`);
        expect(confirming.status).toBe(200);
        expect(confirming.body).toMatchObject({
          questionId,
          status: 'Confirming',
          toName: 'Mira Castell',
          toUsername: 'mira',
          toAvatarUrl: '/images/avatars/mira/abc.webp',
          brandColorMain: '#0E7C66',
          brandColorLight: '#E6F4F0',
          answerPath: null,
          tip: { amountCents: 500, currency: 'usd', state: 'held' },
        });
        expect(steps(confirming.body)).toEqual(['asked']);

        await authorize(questionId);
        await eventually(async () => (await api('GET', `/api/question-status/${token}`)).body.status === 'Pending');
        const held = await api('POST', `/api/question-status/${token}/confirm`);
        expect(steps(held.body)).toEqual(['asked', 'held']);
        expect(new Date(held.body.tip.releaseAt).getTime()).toBeGreaterThan(h.now().getTime() + 4 * 86_400_000);
        // The browser's link proves no address: the guest's stays unconfirmed until the mailed link is opened.
        expect(held.body.emailConfirmed).toBe(false);
        expect(mailsTo('ola@example.com').filter((m) => m.subject.includes('answered'))).toHaveLength(0);

        expect((await api('PUT', `/api/questions/${questionId}/answer`, { answer: 'Yes, send it.', tags: [] }, mira.token)).status).toBe(200);
        const capturedAt = new Date(h.now().getTime() + 1000).toISOString();
        await h.publish('payments', 'TipCaptured', {
          questionId,
          paymentRef: `pi_${questionId}`,
          capturedAt,
          recipientUserId: mira.id,
          amount: 500,
          applicationFee: 50,
          net: 450,
          currency: 'usd',
        }, `tip-${questionId}`);
        await eventually(async () => steps((await api('GET', `/api/question-status/${token}`)).body).includes('charged'));
        const charged = (await api('GET', `/api/question-status/${token}`)).body;
        expect(steps(charged)).toEqual(['asked', 'held', 'answered', 'charged']);
        for (const s of charged.timeline) expect(Date.parse(s.at)).not.toBeNaN();
        expect(charged.timeline[3].at).toBe(capturedAt);
        expect(charged).toMatchObject({
          status: 'Answered',
          answer: 'Yes, send it.',
          isPublic: true,
          answerPath: `/ask/mira/question/${questionId}/will-you-review-my-loom-order`,
          tip: { state: 'charged', chargedAt: capturedAt },
        });
        // Hidden from the public page: no public path any more.
        await api('PATCH', `/api/questions/${questionId}`, { displayOnProfile: false }, mira.token);
        expect((await api('GET', `/api/question-status/${token}`)).body).toMatchObject({ isPublic: false, answerPath: null });

        // A new avatar follows identity's AvatarChanged.
        await h.publish('identity', 'AvatarChanged', { userId: mira.id, avatarUrl: '/images/avatars/mira/new.webp', changedAt: h.now().toISOString() }, `user-${mira.id}`, 2);
        await eventually(async () => (await api('GET', `/api/question-status/${token}`)).body.toAvatarUrl === '/images/avatars/mira/new.webp');
      });

      it('attaches a browser link only when the question is created: a retry keeps its link, another token on it stays a 404', async () => {
        const questionId = randomUUID();
        const token = browserToken();
        expect((await submitTipped(questionId, token)).statusCode).toBe(201);
        const intruder = browserToken();
        expect((await submitTipped(questionId, intruder)).statusCode).toBe(200);
        expect((await api('GET', `/api/question-status/${intruder}`)).status).toBe(404);
        expect((await api('GET', `/api/question-status/${token}`)).body.questionId).toBe(questionId);

        // Withdrawn before an answer: withdrawn and released on the timeline.
        await authorize(questionId);
        await eventually(async () => (await api('GET', `/api/question-status/${token}`)).body.status === 'Pending');
        const page = (await api('POST', `/api/question-status/${token}/withdraw`)).body;
        expect(steps(page)).toEqual(['asked', 'held', 'withdrawn', 'released']);
        expect(page).toMatchObject({ status: 'Withdrawn', answerPath: null, tip: { state: 'released' } });
      });

      it("gives a signed-in asker's free question the link their browser made, at once; a malformed one makes none", async () => {
        const token = browserToken();
        const asked = await api('POST', '/api/questions', { question: 'Free and signed in?', detail: '', tip: 0, toUserId: mira.id, statusToken: token }, sam.token);
        expect(asked.status).toBe(201);
        const page = await api('GET', `/api/question-status/${token}`);
        expect(page.status).toBe(200);
        expect(page.body).toMatchObject({ questionId: asked.body._id, status: 'Pending', tip: null, brandColorMain: '#0E7C66', emailConfirmed: true });
        expect(steps(page.body)).toEqual(['asked']);
        const bad = await api('POST', '/api/questions', { question: 'Malformed token?', detail: '', tip: 0, toUserId: mira.id, statusToken: 'short' }, sam.token);
        expect(bad.status).toBe(201);
        // The malformed token opens nothing; the only link is the one questions made itself for the receipt mail.
        const links = await h.database.db.selectFrom('status_links').select(['token_hash', 'guest']).where('question_id', '=', bad.body._id).execute();
        expect(links.map((l) => l.token_hash)).not.toContain(createHash('sha256').update('short').digest('hex'));
        expect(links.every((l) => !l.guest)).toBe(true);
      });
    });
  },
);
