import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURATE_MESSAGES, OPS_MESSAGES } from '@ques/contracts';
import { eventually } from '@ques/kit/testing';
import { encodeCaptchaToken } from '@ques/support';
import { startEmbedded, type EmbeddedProduct } from './embedded.js';
import { call, signup } from './test/identity-journey.js';
import { signupOperator } from './test/operators.js';

/**
 * Issue 18, the curator's half of the console through the BFF on the embedded default: an archive profile's avatar
 * (the owner's upload rules), its curated Q&A with a required source (the owner's curate command, for the archive),
 * and the audit list of every service (identity, questions, support, payments). Operators only; owned profiles are
 * refused with a clear message.
 */

const TWO_MB = 2 * 1024 * 1024;

/** multipart/form-data with one file part. */
function multipart(field: string, filename: string, type: string, bytes: Buffer) {
  const boundary = `----ques${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, bytes, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('archive profiles from the console: avatar, curated Q&A with sources, the audit of every service', () => {
  let product: EmbeddedProduct;
  let olga: Awaited<ReturnType<typeof signupOperator>>;
  let owen: Awaited<ReturnType<typeof signup>>;
  let archiveId: string;
  const username = 'hedy-lamarr';

  const uploadAvatar = async (id: string, bytes: Buffer, token?: string, type = 'image/png') => {
    const form = multipart('avatar', 'avatar.png', type, bytes);
    const res = await fetch(`${product.url}/api/ops/archives/${id}/avatar`, {
      method: 'POST',
      headers: { 'content-type': form.contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: form.body,
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, any>) : null };
  };
  /** A JSON call with an Idempotency-Key (the console sends one per submit). */
  const withKey = async (method: string, path: string, body: unknown, token: string, key: string) => {
    const res = await fetch(`${product.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const auditOf = async (service: string) => {
    const res = await call(product.url, 'GET', `/api/ops/audit/${service}`, undefined, olga.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.entries as { action: string; subject: string; summary: string; service: string; operatorUsername: string }[];
  };
  const publicList = async () =>
    (await call(product.url, 'GET', `/api/questions?username=${username}`)).body as { id: string; question: string; source: string }[];

  beforeAll(async () => {
    product = await startEmbedded({ port: 0, dataDir: null, logLevel: 'silent', authRateLimitPerMinute: 1_000_000 });
    olga = await signupOperator(product, 'Olga Curator', 'olga.curator@example.com');
    owen = await signup(product.url, 'Owen Owner', 'owen.owner@example.com');
    const created = await call(product.url, 'POST', '/api/ops/archives', { name: 'Hedy Lamarr', bio: 'Actress and inventor.', sources: 'Interviews, 1940s–1990s' }, olga.token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    archiveId = created.body.id as string;
  }, 120_000);
  afterAll(async () => product?.stop());

  it("uploads an archive's avatar like an owner's: re-encoded WebP, 2 MB at most, images only; operators only, archives only", async () => {
    const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#2e86c1' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'Secret camera owner' } })
      .toBuffer();
    // Anyone but an operator: the 404 of a path that does not exist, and nothing stored.
    expect(await uploadAvatar(archiveId, photo, owen.token, 'image/jpeg')).toMatchObject({ status: 404, body: { message: 'Not found' } });
    expect(await uploadAvatar(archiveId, photo, undefined, 'image/jpeg')).toMatchObject({ status: 404, body: { message: 'Not found' } });
    // An owned profile is not an archive.
    expect(await uploadAvatar(owen.id, photo, olga.token, 'image/jpeg')).toMatchObject({ status: 404, body: { message: OPS_MESSAGES.noSuchArchive } });
    // The owner's limits: 2 MB, images only.
    expect(await uploadAvatar(archiveId, Buffer.alloc(TWO_MB + 1, 1), olga.token)).toMatchObject({ status: 413, body: { message: 'Image too large. Please pick one under 2 MB.' } });
    expect((await uploadAvatar(archiveId, Buffer.from('not an image at all'), olga.token)).status).toBe(415);
    expect((await call(product.url, 'GET', `/api/users/public/${username}`)).body.avatarUrl).toBe('/images/user-image.png');

    const done = await uploadAvatar(archiveId, photo, olga.token, 'image/jpeg');
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ id: archiveId, username, archiveProfile: true });
    const url = done.body!.avatarUrl as string;
    expect(url).toMatch(new RegExp(`^/images/avatars/${archiveId}/[a-z0-9]+\\.webp$`));
    const image = await fetch(`${product.url}${url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect([meta.width, meta.height, meta.exif]).toEqual([512, 512, undefined]);
    expect((await call(product.url, 'GET', `/api/users/public/${username}`)).body).toMatchObject({ avatarUrl: url, archiveProfile: true });
    const audit = await auditOf('identity');
    expect(audit.filter((e) => e.action === 'archive.avatar')).toEqual([
      expect.objectContaining({ subject: `user:${archiveId}`, summary: `Changed the avatar of the archive profile @${username}`, operatorUsername: olga.username }),
    ]);
  }, 60_000);

  it('adds, lists, edits, shows/hides and deletes curated Q&A of an archive, a source required; audited', async () => {
    // Questions learns about the archive from identity's events.
    await eventually(async () => (await call(product.url, 'GET', `/api/ops/archives/${archiveId}/curated`, undefined, olga.token)).status === 200);
    const path = `/api/ops/archives/${archiveId}/curated`;
    const first = { question: 'How did frequency hopping start?', detail: 'The 1942 patent.', answer: 'With a player-piano idea and George Antheil.', tags: ['Radio', 'patents'], source: 'https://example.org/interview-1969 (12:30)' };
    const second = { question: 'Why invent at all?', answer: 'Improving things comes naturally to me.', source: 'Ecstasy and Me, page 33' };

    // The curate form's rules, then the archive's: a source is required.
    expect((await call(product.url, 'POST', path, { ...first, question: ' ' }, olga.token)).body.message).toBe(CURATE_MESSAGES.titleRequired);
    expect((await call(product.url, 'POST', path, { ...first, answer: '' }, olga.token)).body.message).toBe(CURATE_MESSAGES.answerRequired);
    const noSource = await call(product.url, 'POST', path, { ...first, source: '  ' }, olga.token);
    expect([noSource.status, noSource.body.message]).toEqual([400, OPS_MESSAGES.sourceRequired]);
    expect((await call(product.url, 'POST', path, { question: 'q', answer: 'a' }, olga.token)).body.message).toBe(OPS_MESSAGES.sourceRequired);
    // An owned profile curates its own Q&A; an unknown id is no archive.
    await eventually(async () => (await call(product.url, 'POST', `/api/ops/archives/${owen.id}/curated`, first, olga.token)).body.message === OPS_MESSAGES.notAnArchive);
    expect((await call(product.url, 'POST', `/api/ops/archives/${owen.id}/curated`, first, olga.token)).status).toBe(422);
    expect((await call(product.url, 'POST', `/api/ops/archives/${crypto.randomUUID()}/curated`, first, olga.token)).body.message).toBe(OPS_MESSAGES.noSuchArchive);
    // Owners and guests: 404, nothing created.
    for (const token of [owen.token, undefined]) {
      const res = await call(product.url, 'POST', path, first, token);
      expect([res.status, res.body.message]).toEqual([404, 'Not found']);
    }
    expect(await publicList()).toEqual([]);

    const key = crypto.randomUUID();
    const a = await withKey('POST', path, first, olga.token, key);
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body).toMatchObject({ isCurated: true, toUsername: username, source: first.source, tags: ['radio', 'patents'], displayOnProfile: true, tip: 0 });
    // A retried submit (same key) is the same Q&A, not a second one.
    const retried = await withKey('POST', path, first, olga.token, key);
    expect([retried.status, retried.body.id]).toEqual([201, a.body.id]);
    const b = await withKey('POST', path, second, olga.token, crypto.randomUUID());
    expect(b.status).toBe(201);

    const listed = await call(product.url, 'GET', path, undefined, olga.token);
    expect(listed.body.map((q: { id: string; source: string }) => [q.id, q.source])).toEqual([
      [b.body.id, second.source],
      [a.body.id, first.source],
    ]);
    // The public page lists both, each with its source.
    expect((await publicList()).map((q) => [q.question, q.source])).toEqual([
      [second.question, second.source],
      [first.question, first.source],
    ]);

    // Edit: answer, tags and source — never without a source.
    const curated = `/api/ops/curated/${a.body.id}`;
    const blank = await call(product.url, 'PUT', curated, { answer: 'x', source: '' }, olga.token);
    expect([blank.status, blank.body.message]).toEqual([400, OPS_MESSAGES.sourceRequired]);
    const edited = await call(product.url, 'PUT', curated, { answer: 'With a player piano.', tags: ['radio'], source: 'Forbes, 1990, page 2' }, olga.token);
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ answer: 'With a player piano.', tags: ['radio'], source: 'Forbes, 1990, page 2' });
    expect((await publicList()).find((q) => q.id === a.body.id)?.source).toBe('Forbes, 1990, page 2');

    // Show / hide on the public page.
    expect((await call(product.url, 'PATCH', curated, { displayOnProfile: false }, olga.token)).body.displayOnProfile).toBe(false);
    expect((await publicList()).map((q) => q.id)).toEqual([b.body.id]);
    expect((await call(product.url, 'PATCH', curated, { displayOnProfile: true }, olga.token)).body.displayOnProfile).toBe(true);
    expect((await publicList()).map((q) => q.id)).toEqual([b.body.id, a.body.id]);

    // Owners and guests cannot touch it.
    for (const token of [owen.token, undefined]) {
      expect((await call(product.url, 'PUT', curated, { answer: 'x', source: 'y' }, token)).status).toBe(404);
      expect((await call(product.url, 'PATCH', curated, { displayOnProfile: false }, token)).status).toBe(404);
      expect((await call(product.url, 'DELETE', curated, undefined, token)).status).toBe(404);
      expect((await call(product.url, 'GET', path, undefined, token)).status).toBe(404);
    }

    // Delete: gone from the page and the console's list; a second delete finds nothing.
    expect((await call(product.url, 'DELETE', `/api/ops/curated/${b.body.id}`, undefined, olga.token)).body).toEqual({ questionId: b.body.id, deleted: true });
    expect((await publicList()).map((q) => q.id)).toEqual([a.body.id]);
    expect((await call(product.url, 'GET', path, undefined, olga.token)).body.map((q: { id: string }) => q.id)).toEqual([a.body.id]);
    expect((await call(product.url, 'DELETE', `/api/ops/curated/${b.body.id}`, undefined, olga.token)).body.message).toBe(OPS_MESSAGES.noSuchCurated);

    // An owner's own curated Q&A is theirs: the console refuses it.
    const own = await call(product.url, 'POST', '/api/questions', { question: 'Mine?', answer: 'Mine.', isCurated: true, tip: 0 }, owen.token);
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const refused = await call(product.url, 'PUT', `/api/ops/curated/${own.body.id}`, { answer: 'Not yours', source: 'x' }, olga.token);
    expect([refused.status, refused.body.message]).toEqual([422, OPS_MESSAGES.notAnArchive]);

    const audit = await auditOf('questions');
    expect(audit.map((e) => e.action).sort()).toEqual(['curated.create', 'curated.create', 'curated.delete', 'curated.edit', 'curated.hide', 'curated.show']);
    expect(audit.find((e) => e.action === 'curated.delete')).toMatchObject({ subject: `question:${b.body.id}`, summary: `Deleted a curated answer of the archive profile @${username}` });
  }, 90_000);

  it("lists every service's operator actions: support's answered request and resolved report, payments' stream actions, questions' hidden answer", async () => {
    // A support request (signed in, with the captcha), answered from the console.
    const challenge = (await call(product.url, 'GET', '/api/support/captcha')).body as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey, timeout: 20_000 });
    if (!solution) throw new Error('could not solve the challenge');
    const sent = await call(product.url, 'POST', '/api/support/send', { category: 'Billing Issue', title: 'Where is my tip?', description: 'It still shows as held.', captchaToken: encodeCaptchaToken(challenge, solution) }, owen.token);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const request = await eventually(async () => ((await call(product.url, 'GET', '/api/ops/support/requests', undefined, olga.token)).body as { id: string }[])[0]);
    expect((await call(product.url, 'POST', `/api/ops/support/requests/${request.id}/answer`, { note: 'Released on Monday.' }, olga.token)).status).toBe(200);
    // A report of the archive, dismissed.
    expect((await call(product.url, 'POST', '/api/reports', { target: { kind: 'profile', username }, reason: 'Spam' }, owen.token)).status).toBe(200);
    const [report] = (await call(product.url, 'GET', '/api/ops/support/reports', undefined, olga.token)).body as { id: string }[];
    expect((await call(product.url, 'POST', `/api/ops/support/reports/${report!.id}/resolve`, { resolution: 'dismissed' }, olga.token)).status).toBe(200);
    expect((await auditOf('support')).map((e) => [e.service, e.action])).toEqual([
      ['support', 'report.dismiss'],
      ['support', 'support.answer'],
    ]);

    // Payments: a rebuild of its projections started from the console.
    const rebuild = await call(product.url, 'POST', '/api/ops/streams/payments/rebuild', {}, olga.token);
    expect(rebuild.status, JSON.stringify(rebuild.body)).toBe(202);
    await eventually(async () => (await call(product.url, 'GET', `/api/ops/streams/payments/jobs/${rebuild.body.id}`, undefined, olga.token)).body.status === 'done');
    await eventually(async () => (await auditOf('payments')).length > 0);
    expect((await auditOf('payments')).map((e) => [e.service, e.action, e.summary])).toEqual([['payments', 'projections.rebuild', "Started a rebuild of payments's projections"]]);
    // Questions: an answer hidden by the operator (the desk's action) is listed with the curator's acts.
    const [shown] = (await call(product.url, 'GET', `/api/ops/archives/${archiveId}/curated`, undefined, olga.token)).body as { id: string }[];
    expect((await call(product.url, 'POST', `/api/ops/questions/${shown!.id}/hide`, { reason: 'Misattributed quote' }, olga.token)).status).toBe(200);
    expect((await auditOf('questions'))[0]).toMatchObject({ service: 'questions', action: 'answer.hide', subject: `question:${shown!.id}` });

    // Owners and guests see none of it.
    for (const service of ['support', 'payments'])
      for (const token of [owen.token, undefined]) expect((await call(product.url, 'GET', `/api/ops/audit/${service}`, undefined, token)).status).toBe(404);
  }, 90_000);
});
