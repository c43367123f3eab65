import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { strFromU8, unzipSync } from 'fflate';
import { readMailbox } from '@ques/kit';
import { eventually } from '@ques/kit/testing';
import { markArchiveProfile as markArchive } from '@ques/identity';
import { startEmbedded, type EmbeddedProduct } from './embedded.js';
import { call, signup as signupThroughBff, verifyEmail } from './test/identity-journey.js';
import { seedTippedAnswer } from './test/tipped-answer.js';

let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const HOUR = 3_600_000;

/** Bytes as transferred over HTTP (the compressed body a browser receives), with the response headers. */
function transferred(url: string): Promise<{ status: number; bytes: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { 'accept-encoding': 'br, gzip, deflate' } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode!, bytes, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Issue 15, the embeddable ask button and the data export, over plain HTTP through the BFF on the embedded default
 * (PGlite, in-process bus, test-mode payments): the card's headers, weight and refusals; an export's ZIP with the
 * seeded questions and a $5.00 / $0.50 / $4.50 tip, refusals to anyone but its owner, expiry, CSV escaping and deleted
 * accounts.
 */
describe('embed card and data export through the BFF (embedded default)', () => {
  let product: EmbeddedProduct;
  let base: string;
  beforeAll(async () => {
    product = await startEmbedded({ port: 0, dataDir: null, logLevel: 'silent', authRateLimitPerMinute: 100_000, clock });
    base = product.url;
  }, 60_000);
  afterAll(async () => product?.stop());

  const signup = (name: string, email: string) => signupThroughBff(base, name, email);
  const poll = (fn: () => Promise<unknown>) => expect.poll(fn, { timeout: 20_000, interval: 100 });
  /** Outside a test (set-up): waits until `fn` gives `want`. */
  const until = (fn: () => Promise<unknown>, want: unknown) => eventually(async () => (await fn()) === want, 20_000);

  describe('the embed card', () => {
    it('shows "Ask {name} a question" in the brand colours, framable anywhere, with no script, ≤ 5 kB transferred', async () => {
      const ada = await signup('Ada Embed', 'ada.embed@example.com');
      const saved = await call(base, 'PUT', '/api/users/profile', { name: 'Ada Embed', brandColorMain: '#0B5FFF', brandColorLight: '#EEF3FF' }, ada.token);
      expect(saved.status).toBe(200);
      const res = await fetch(`${base}/embed/${ada.username}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('Ask Ada Embed a question');
      expect(html).toContain(`/ask/${ada.username}" target="_blank" rel="noopener"`);
      expect(html).toContain('background:#0B5FFF');
      expect(html).toContain('background:#EEF3FF');
      expect(html).toContain('target="_blank"');
      expect(html).not.toMatch(/<script|<link|<img|<iframe|src=/i);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain('frame-ancestors *');
      expect(csp).toContain("default-src 'none'");
      expect(res.headers.get('x-frame-options')).toBeNull();

      const weight = await transferred(`${base}/embed/${ada.username}`);
      expect(weight.status).toBe(200);
      expect(weight.bytes).toBeLessThanOrEqual(5 * 1024);
      console.info(`embed card: ${weight.bytes} bytes transferred (${html.length} uncompressed)`);
    });

    it("keeps every other page unframable (frame-ancestors 'none', X-Frame-Options)", async () => {
      for (const path of ['/', '/ask/nobody-here', '/api/users/public/nobody-here', '/embedded', '/admin/account-settings']) {
        const res = await fetch(`${base}${path}`);
        expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
        expect(res.headers.get('x-frame-options'), path).toBeTruthy();
      }
    });

    it('is a 404 for an unknown or deleted profile; an archive shows its answers link and no ask button', async () => {
      expect((await fetch(`${base}/embed/no-such-person`)).status).toBe(404);
      expect((await fetch(`${base}/embed/${encodeURIComponent('%%%')}`)).status).toBe(404);
      const gone = await signup('Gone Embed', 'gone.embed@example.com');
      expect((await fetch(`${base}/embed/${gone.username}`)).status).toBe(200);
      expect((await call(base, 'DELETE', `/api/users/profile/${gone.id}`, undefined, gone.token)).status).toBe(200);
      expect((await fetch(`${base}/embed/${gone.username}`)).status).toBe(404);

      const archive = await signup('Archie Archive', 'archie.archive@example.com');
      await markArchive(product.services.identity.parts, archive.username, true);
      const html = await (await fetch(`${base}/embed/${archive.username}`)).text();
      expect(html).toContain("View Archie Archive&#39;s answers");
      expect(html).not.toContain('Ask Archie');
    });
  });

  describe('the data export', () => {
    type Owner = Awaited<ReturnType<typeof signup>>;
    let ada: Owner;
    let bob: Owner;
    let carol: Owner;
    let tippedId: string;
    let exportId: string;
    let files: Record<string, string>;

    const exportReady = async (who: Owner) => {
      const started = Date.now();
      const requested = await call(base, 'POST', '/api/users/exports', {}, who.token);
      expect(requested.status, JSON.stringify(requested.body)).toBe(202);
      expect(['requested', 'running']).toContain(requested.body.status);
      const id = requested.body.id as string;
      await until(async () => (await call(base, 'GET', `/api/users/exports/${id}`, undefined, who.token)).body.status, 'ready');
      const ms = Date.now() - started;
      const res = await fetch(`${base}/api/users/exports/${id}/download`, { headers: { authorization: `Bearer ${who.token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/zip');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="ques-export-\d{4}-\d{2}-\d{2}\.zip"$/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
      return { id, ms, files: Object.fromEntries(Object.entries(zip).map(([name, bytes]) => [name, strFromU8(bytes)])) };
    };

    beforeAll(async () => {
      ada = await signup('Ada Exporter', 'ada.exporter@example.com');
      bob = await signup('Bob Asker', 'bob.asker@example.com');
      carol = await signup('Carol Owner', 'carol.owner@example.com');
      await verifyEmail(base, product.mailDir, ada.email);

      // Ada takes $5 tips (test-mode onboarding), a guest tips $5, Ada answers: captured 500 / 50 / 450.
      tippedId = await seedTippedAnswer(base, ada, 'Is a tipped question worth it?', 'Every cent.');

      // Bob asks Ada a question whose title is a spreadsheet formula; Ada curates one with tags; Ada asks Carol.
      const free = (to: Owner, question: string, token: string) =>
        call(base, 'POST', '/api/questions', { question, detail: '', tip: 0, isCurated: false, toUsername: to.username, toUserId: to.id, agreedToTerms: true }, token);
      expect((await free(ada, '=HYPERLINK("http://evil.example","click")', bob.token)).status).toBe(201);
      expect((await free(ada, '@SUM(A1:A2)', bob.token)).status).toBe(201);
      const curated = await call(base, 'POST', '/api/questions', { question: 'What is Ques?', answer: 'Paid Q&A.', tags: ['about', 'ques'], isCurated: true, toUsername: ada.username, toUserId: ada.id }, ada.token);
      expect(curated.status, JSON.stringify(curated.body)).toBe(201);
      expect((await free(carol, 'A question Ada asked Carol', ada.token)).status).toBe(201);

      const ready = await exportReady(ada);
      exportId = ready.id;
      files = ready.files;
      console.info(`data export of a seeded account: ready in ${ready.ms} ms, ${Object.keys(files).length} files`);
    }, 120_000);

    it('holds the profile, the questions received, curated and asked, and the tip $5.00 / $0.50 / $4.50 in JSON and CSV', () => {
      expect(Object.keys(files).sort()).toEqual(['README.txt', 'profile.json', 'ques-data.json', 'questions.csv', 'tips.csv']);
      const data = JSON.parse(files['ques-data.json']!);
      expect(data.profile).toMatchObject({ id: ada.id, username: ada.username, email: ada.email });
      const byQuestion = Object.fromEntries((data.questions as { question: string; role: string }[]).map((q) => [q.question, q]));
      expect(byQuestion['Is a tipped question worth it?']).toMatchObject({ role: 'received', answer: 'Every cent.', status: 'answered', tipStatus: 'captured', tip: '$5.00' });
      expect(byQuestion['What is Ques?']).toMatchObject({ role: 'curated', tags: ['about', 'ques'], answer: 'Paid Q&A.' });
      expect(byQuestion['A question Ada asked Carol']).toMatchObject({ role: 'asked', askedTo: carol.username, status: 'pending' });
      expect(byQuestion['=HYPERLINK("http://evil.example","click")']).toMatchObject({ role: 'received', askedBy: 'Bob Asker' });
      expect(data.tips).toEqual([
        expect.objectContaining({ questionId: tippedId, role: 'received', amount: '$5.00', fee: '$0.50', net: '$4.50', amountCents: 500, feeCents: 50, netCents: 450, status: 'captured' }),
      ]);
      expect(data.earnings).toEqual([expect.objectContaining({ gross: '$5.00', fee: '$0.50', net: '$4.50' })]);

      const tipsCsv = files['tips.csv']!.replace(/^\uFEFF/, '').split('\r\n');
      expect(tipsCsv[0]).toBe('"question_id","role","amount","fee","net","currency","status","release_reason","created_at","captured_at"');
      expect(tipsCsv[1]).toContain(`"${tippedId}","received","$5.00","$0.50","$4.50","usd","captured"`);
      const questionsCsv = files['questions.csv']!;
      expect(questionsCsv).toContain('"Is a tipped question worth it?","","Every cent."');
      expect(questionsCsv).toContain('"about, ques"');
      expect(JSON.parse(files['profile.json']!).username).toBe(ada.username);
    });

    it('escapes CSV cells that a spreadsheet would run as formulas', () => {
      const csv = files['questions.csv']!;
      expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
      expect(csv).toContain(`"'@SUM(A1:A2)"`);
      expect(csv).not.toMatch(/(^|,)"[=+\-@]/m);
    });

    it('mails the verified owner when it is ready', async () => {
      await poll(async () => readMailbox(product.mailDir).filter((m) => m.to.includes(ada.email) && /data export is ready/i.test(m.subject)).length).toBe(1);
      const mail = readMailbox(product.mailDir).find((m) => /data export is ready/i.test(m.subject))!;
      expect(mail.text).toContain('/admin/account-settings');
      // The mail carries no download token: the download needs the owner's session.
      expect(mail.text).not.toContain(exportId);
    });

    it("refuses anyone but the owner: another user's export is not found, a guest is refused, own lists only", async () => {
      for (const path of [`/api/users/exports/${exportId}`, `/api/users/exports/${exportId}/download`]) {
        expect((await call(base, 'GET', path, undefined, bob.token)).status, path).toBe(404);
        expect((await call(base, 'GET', path)).status, path).toBe(401);
      }
      expect((await call(base, 'GET', '/api/users/exports/not-an-id', undefined, ada.token)).status).toBe(404);
      expect((await call(base, 'GET', '/api/users/exports', undefined, bob.token)).body).toEqual({ export: null });
      expect((await call(base, 'GET', '/api/users/exports', undefined, ada.token)).body.export).toMatchObject({ id: exportId, status: 'ready' });
      // The internal parts are not routed by the BFF (at most the app shell answers such a path).
      for (const path of [`/internal/exports/questions/${ada.id}`, `/internal/exports/payments/${ada.id}`]) {
        const res = await call(base, 'GET', path);
        expect(res.headers.get('content-type'), path).not.toContain('json');
        expect(res.text, path).not.toContain('Every cent');
        expect(res.text, path).not.toContain('amountCents');
      }
    });

    it('expires after 24 hours: the state says so and the download is gone', async () => {
      offsetMs += 24 * HOUR + 60_000;
      try {
        expect((await call(base, 'GET', `/api/users/exports/${exportId}`, undefined, ada.token)).body.status).toBe('expired');
        const res = await call(base, 'GET', `/api/users/exports/${exportId}/download`, undefined, ada.token);
        expect(res.status).toBe(404);
        expect(res.body.message).toBe('This export has expired. Please request a new one.');
      } finally {
        offsetMs -= 24 * HOUR + 60_000;
      }
    });

    it("leaves a deleted account's data out of everyone's export, and deletes its own exports with it", async () => {
      expect((await call(base, 'DELETE', `/api/users/profile/${bob.id}`, undefined, bob.token)).status).toBe(200);
      expect((await call(base, 'DELETE', `/api/users/profile/${carol.id}`, undefined, carol.token)).status).toBe(200);
      // Questions erases them as it learns of the deletions (events).
      await poll(async () => JSON.stringify((await call(base, 'GET', '/api/questions?role=receiver', undefined, ada.token)).body).includes('Bob Asker')).toBe(false);
      await poll(async () => JSON.stringify((await call(base, 'GET', '/api/questions?role=asker', undefined, ada.token)).body).includes('A question Ada asked Carol')).toBe(false);
      const again = await exportReady(ada);
      const everything = Object.values(again.files).join('\n');
      for (const gone of ['Bob Asker', bob.email, bob.id, 'Carol Owner', carol.email, carol.id, carol.username, 'A question Ada asked Carol'])
        expect(everything, gone).not.toContain(gone);
      // Bob's question is still Ada's (received), from a deleted user.
      expect(everything).toContain('Deleted user');

      // Ada's own exports go with her account.
      const db = product.services.identity.ctx.db;
      expect((await db.selectFrom('data_exports').select('id').where('user_id', '=', ada.id).execute()).length).toBeGreaterThan(0);
      expect((await call(base, 'DELETE', `/api/users/profile/${ada.id}`, undefined, ada.token)).status).toBe(200);
      expect(await db.selectFrom('data_exports').select('id').where('user_id', '=', ada.id).execute()).toEqual([]);
    }, 60_000);
  });
});
