import { request as httpRequest } from 'node:http';
import { deflateSync } from 'node:zlib';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMailbox } from '@ques/kit';
import { startEmbedded, type EmbeddedProduct } from './embedded.js';
import { eventually } from '@ques/kit/testing';
import { call, signup as signupThroughBff, verificationMails, verificationToken } from './test/identity-journey.js';

const TWO_MB = 2 * 1024 * 1024;

/** A clock the test can move forward. */
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

/** multipart/form-data with one file part. */
function multipart(field: string, filename: string, type: string, bytes: Buffer) {
  const boundary = `----ques${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, bytes, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(base: string, token: string, file: { name: string; type: string; bytes: Buffer }) {
  const form = multipart('avatar', file.name, file.type, file.bytes);
  const res = await fetch(`${base}/api/users/avatar`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType },
    body: form.body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, any>) : null };
}

/** A PNG whose header claims width × height, with almost no pixel data: tiny on disk, gigantic once decoded. */
function pixelBomb(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(width + 1))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('account: avatars, password reset, deletion — through the BFF on the embedded default', () => {
  let product: EmbeddedProduct;
  let base: string;

  beforeAll(async () => {
    product = await startEmbedded({ port: 0, dataDir: null, logLevel: 'silent', authRateLimitPerMinute: 1000, clock });
    base = product.url;
  });
  afterAll(async () => product?.stop());

  const signup = (name: string, email: string) => signupThroughBff(base, name, email);

  it('re-encodes an uploaded avatar without its metadata, at a new URL on every upload, and never serves the old one', async () => {
    const me = await signup('Avatar Owner', 'avatar.owner@example.com');
    const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#c0392b' } })
      .jpeg()
      .withExif({ IFD0: { Artist: 'Secret Person', Copyright: 'GPS 48.8584 2.2945' } })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();

    const first = await upload(base, me.token, { name: 'me.jpg', type: 'image/jpeg', bytes: photo });
    expect(first.status).toBe(200);
    const firstUrl = first.body!.avatarUrl as string;
    expect(firstUrl).toMatch(new RegExp(`^/images/avatars/${me.id}/[a-z0-9]+\\.webp$`));

    const served = await fetch(`${base}${firstUrl}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toContain('immutable');
    const stored = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('webp');
    expect([meta.width, meta.height]).toEqual([512, 512]);
    expect(meta.exif).toBeUndefined();
    expect(stored.includes(Buffer.from('Secret Person'))).toBe(false);
    expect((await fetch(`${base}${firstUrl.replace('.webp', '-160.webp')}`)).status).toBe(200);

    const second = await upload(base, me.token, { name: 'me.png', type: 'image/png', bytes: await sharp(photo).png().toBuffer() });
    expect(second.status).toBe(200);
    expect(second.body!.avatarUrl).not.toBe(firstUrl);
    expect((await fetch(`${base}${firstUrl}`)).status).toBe(404);
    expect((await call(base, 'GET', '/api/users/profile', undefined, me.token)).body.avatarUrl).toBe(second.body!.avatarUrl);
    expect((await call(base, 'GET', `/api/users/public/${me.username}`)).body.avatarUrl).toBe(second.body!.avatarUrl);
  });

  it('refuses 2 MB + 1 byte with 413 and the message, renamed text and SVG with 415, and a pixel bomb', async () => {
    const me = await signup('Upload Tester', 'upload.tester@example.com');
    const tooBig = await upload(base, me.token, { name: 'big.jpg', type: 'image/jpeg', bytes: Buffer.alloc(TWO_MB + 1, 0xff) });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body!.message).toBe('Image too large. Please pick one under 2 MB.');

    const text = await upload(base, me.token, { name: 'notes.jpg', type: 'image/jpeg', bytes: Buffer.from('just some text, not a picture') });
    expect(text.status).toBe(415);
    const svg = await upload(base, me.token, {
      name: 'logo.png',
      type: 'image/png',
      bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    });
    expect(svg.status).toBe(415);

    const bomb = pixelBomb(60_000, 60_000);
    expect(bomb.length).toBeLessThan(200_000);
    const bombed = await upload(base, me.token, { name: 'bomb.png', type: 'image/png', bytes: bomb });
    expect(bombed.status).toBe(413);
    expect(bombed.body!.message).toMatch(/too large to process/);

    expect((await call(base, 'GET', '/api/users/profile', undefined, me.token)).body.avatarUrl).toBe('/images/user-image.png');
    const anonymous = await fetch(`${base}/api/users/avatar`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--' });
    expect(anonymous.status).toBe(401);
  });

  it('answers 413 while an oversized upload is still unfinished (it never waits for, or keeps, the whole body)', async () => {
    const me = await signup('Stream Tester', 'stream.tester@example.com');
    const url = new URL(`${base}/api/users/avatar`);
    const boundary = 'streamboundary';
    // Send 4 MB of a file that never ends (chunked, no declared length), then wait: a server that buffered the
    // whole body before deciding would never answer; one that stops at 2 MB answers now.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { authorization: `Bearer ${me.token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      const timer = setTimeout(() => {
        req.destroy();
        reject(new Error('no answer while the upload was held open'));
      }, 15_000);
      req.on('close', () => clearTimeout(timer));
      req.on('error', () => undefined);
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="huge.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
      for (let i = 0; i < 16; i += 1) req.write(Buffer.alloc(256 * 1024, 0xff));
    });
    expect(status).toBe(413);
  });

  it('answers a reset request identically for known and unknown e-mails; the mailed link works once, within 30 minutes, and ends every session', async () => {
    const me = await signup('Reset Person', 'reset.person@example.com');
    const known = await fetch(`${base}/api/users/reset-password`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'reset.person@example.com' }) });
    const unknown = await fetch(`${base}/api/users/reset-password`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'nobody.here@example.com' }) });
    expect(known.status).toBe(unknown.status);
    const [knownBody, unknownBody] = [await known.text(), await unknown.text()];
    expect(knownBody).toBe(unknownBody);
    expect(JSON.parse(knownBody)).toEqual({ message: 'Reset instructions sent' });

    const mailFor = (to: string) => readMailbox(product.mailDir).filter((m) => m.to.includes(to) && /reset/i.test(m.subject));
    await expect.poll(() => mailFor('reset.person@example.com').length, { timeout: 10_000 }).toBe(1);
    expect(mailFor('nobody.here@example.com')).toHaveLength(0);
    const link = /https?:\/\/\S+\/reset-password-confirm\?token=([\w-]+)/.exec(mailFor('reset.person@example.com')[0]!.text);
    expect(link).not.toBeNull();
    const token = decodeURIComponent(link![1]!);

    const confirmed = await call(base, 'POST', '/api/users/reset-password-confirm', { token, password: 'a fresh new passphrase' });
    expect(confirmed.status).toBe(200);
    expect((await call(base, 'POST', '/api/users/reset-password-confirm', { token, password: 'yet another passphrase' })).status).toBe(400);
    expect((await call(base, 'POST', '/api/users/refresh-token', { refreshToken: me.refreshToken })).status).toBe(401);
    expect((await call(base, 'GET', '/api/users/profile', undefined, me.token)).status).toBe(401);
    expect((await call(base, 'POST', '/api/users/login', { email: 'reset.person@example.com', password: 'a fresh new passphrase' })).status).toBe(200);

    // A second link, used 31 minutes later, no longer works.
    await call(base, 'POST', '/api/users/reset-password', { email: 'reset.person@example.com' });
    await expect.poll(() => mailFor('reset.person@example.com').length, { timeout: 10_000 }).toBe(2);
    const late = /token=([\w-]+)/.exec(mailFor('reset.person@example.com')[1]!.text)![1]!;
    offsetMs = 31 * 60_000;
    try {
      const expired = await call(base, 'POST', '/api/users/reset-password-confirm', { token: late, password: 'too late passphrase' });
      expect(expired.status).toBe(400);
      expect(expired.body.message).toMatch(/^Reset failed/);
    } finally {
      offsetMs = 0;
    }
  });

  it('does the same work for known and unknown reset addresses (one queued job each, the address not kept), and mails an address at most 5 times an hour', async () => {
    await signup('Capped Person', 'capped.person@example.com');
    const { db } = product.services.identity.ctx;
    const jobs = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM scheduled_jobs WHERE kind = 'password-reset-mail'`.execute(db)).rows[0]!.n;
    const before = await jobs();
    const answers: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      for (const email of ['capped.person@example.com', 'nobody.capped@example.com']) {
        const res = await call(base, 'POST', '/api/users/reset-password', { email });
        answers.push(`${res.status} ${res.text}`);
      }
    }
    expect(new Set(answers)).toEqual(new Set(['200 {"message":"Reset instructions sent"}']));
    // Every request, whoever the address belongs to, queued exactly one job.
    expect((await jobs()) - before).toBe(14);
    await eventually(async () => {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM scheduled_jobs WHERE kind = 'password-reset-mail' AND status = 'pending'`.execute(db);
      return rows[0]!.n === 0;
    }, 20_000);
    const mails = readMailbox(product.mailDir).filter((m) => m.to.includes('capped.person@example.com') && /reset/i.test(m.subject));
    expect(mails).toHaveLength(5);
    // Handled jobs do not keep the address typed (perhaps a stranger's).
    const dump = JSON.stringify((await sql`SELECT payload FROM scheduled_jobs WHERE kind = 'password-reset-mail' AND status = 'done'`.execute(db)).rows);
    expect(dump).not.toContain('nobody.capped@example.com');
    expect(dump).not.toContain('capped.person@example.com');
  });

  it("verifies an e-mail by a single-use, hashed link mailed at signup and on change; a guest's questions follow only a verified address", async () => {
    const owner = await signup('Vera Owner', 'vera.owner@example.com');
    const guestEmail = 'gil.guest@example.com';
    const asked = await eventually(async () => {
      const res = await call(base, 'POST', '/api/questions', {
        question: 'A private question from a guest?', detail: '', tip: 0, toUsername: owner.username, toUserId: owner.id,
        askedName: 'Gil Guest', askedEmail: guestEmail, agreedToTerms: true,
      });
      return res.status === 201 ? (res.body._id as string) : null;
    });

    // Someone registers the guest's address: the account works, but nothing of the guest's attaches to it.
    const claimant = await signup('Gil Claimant', guestEmail);
    const profile = await call(base, 'GET', '/api/users/profile', undefined, claimant.token);
    expect(profile.body).toMatchObject({ email: guestEmail, emailVerified: false });
    const token = await verificationToken(product.mailDir, guestEmail);
    // Give questions every chance to have the new account, then check it still sees nothing of the guest's.
    await eventually(async () => (await call(base, 'GET', '/api/questions?role=asker', undefined, claimant.token)).status === 200);
    expect((await call(base, 'GET', '/api/questions?role=asker', undefined, claimant.token)).body).toEqual([]);
    expect((await call(base, 'GET', `/api/questions/${asked}`, undefined, claimant.token)).status).toBe(404);
    expect((await call(base, 'DELETE', `/api/questions/${asked}`, undefined, claimant.token)).status).toBe(404);

    // Only the hash of the mailed token is stored.
    const { db } = product.services.identity.ctx;
    expect(JSON.stringify((await sql`SELECT * FROM email_verifications`.execute(db)).rows)).not.toContain(token);

    // (Identity mails inside the transaction that stores the hash: wait for it to commit, as no person could be faster.)
    await eventually(async () => !(await db.selectFrom('scheduled_jobs').select('id').where('status', '=', 'pending').executeTakeFirst()));
    const wrong = await call(base, 'POST', '/api/users/verify-email', { token: `${token}x` });
    expect([wrong.status, wrong.body.message]).toEqual([400, 'This verification link is invalid, expired or already used. Sign in and send a new one from Account Settings.']);
    const ok = await call(base, 'POST', '/api/users/verify-email', { token });
    expect([ok.status, ok.body.message]).toEqual([200, 'Your email address is verified.']);
    expect((await call(base, 'POST', '/api/users/verify-email', { token })).status).toBe(400); // single use
    expect((await call(base, 'GET', '/api/users/profile', undefined, claimant.token)).body.emailVerified).toBe(true);
    await eventually(async () => (await call(base, 'GET', '/api/questions?role=asker', undefined, claimant.token)).body.some((q: { _id: string }) => q._id === asked));
    const already = await call(base, 'POST', '/api/users/verify-email/resend', undefined, claimant.token);
    expect([already.status, already.body.message]).toEqual([409, 'Your email address is already verified.']);

    // A new address needs the current password, is unverified again, and gets its own link.
    const noPassword = await call(base, 'PUT', '/api/users/profile', { ...profile.body, email: 'gil.new@example.com' }, claimant.token);
    expect([noPassword.status, noPassword.body.message]).toEqual([400, 'Please enter your current password.']);
    const wrongPassword = await call(base, 'PUT', '/api/users/profile', { email: 'gil.new@example.com', currentPassword: 'not my password' }, claimant.token);
    expect([wrongPassword.status, wrongPassword.body.message]).toEqual([400, 'Your current password is incorrect.']);
    const moved = await call(base, 'PUT', '/api/users/profile', { email: 'gil.new@example.com', currentPassword: 'a long enough password' }, claimant.token);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ email: 'gil.new@example.com', emailVerified: false });
    const second = await verificationToken(product.mailDir, 'gil.new@example.com');

    // Resend: a new link each time, at most 5 verification mails an hour per account (signup's and the change's count).
    const resends: number[] = [];
    for (let i = 0; i < 4; i += 1) resends.push((await call(base, 'POST', '/api/users/verify-email/resend', undefined, claimant.token)).status);
    expect(resends).toEqual([200, 200, 200, 429]);
    expect((await call(base, 'POST', '/api/users/verify-email/resend', undefined, claimant.token)).body.message).toBe('Too many verification emails. Please try again later.');
    await eventually(async () => verificationMails(product.mailDir, 'gil.new@example.com').length === 4);

    // A link older than 24 hours no longer works; a fresh one does.
    offsetMs = 25 * 3_600_000;
    try {
      expect((await call(base, 'POST', '/api/users/verify-email', { token: second })).status).toBe(400);
    } finally {
      offsetMs = 0;
    }
    const latest = await verificationToken(product.mailDir, 'gil.new@example.com', 4);
    await eventually(async () => !(await db.selectFrom('scheduled_jobs').select('id').where('status', '=', 'pending').executeTakeFirst()));
    expect((await call(base, 'POST', '/api/users/verify-email', { token: latest })).status).toBe(200);
    expect((await call(base, 'GET', '/api/users/profile', undefined, claimant.token)).body.emailVerified).toBe(true);
  });

  it('deletes only the caller’s own account, and afterwards nothing personal of theirs is readable', async () => {
    const me = await signup('Grace Deleted', 'grace.deleted@example.com');
    const other = await signup('Other Person', 'other.person@example.com');
    const photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#2980b9' } }).png().toBuffer();
    expect((await upload(base, me.token, { name: 'g.png', type: 'image/png', bytes: photo })).status).toBe(200);
    const avatarUrl = (await call(base, 'GET', '/api/users/profile', undefined, me.token)).body.avatarUrl as string;

    // Grace answers a guest in public, and asks the other person a question while signed in.
    const guestQuestion = await call(base, 'POST', '/api/questions', {
      question: 'Will my answers outlive me?',
      detail: '',
      tip: 0,
      toUsername: me.username,
      toUserId: me.id,
      askedName: 'Gus Guest',
      askedEmail: 'gus.guest@example.com',
      agreedToTerms: true,
    });
    expect(guestQuestion.status).toBe(201);
    const guestQuestionId = (guestQuestion.body._id ?? guestQuestion.body.id) as string;
    expect((await call(base, 'PUT', `/api/questions/${guestQuestionId}/answer`, { answer: 'Not after deletion.' }, me.token)).status).toBe(200);
    await expect.poll(async () => (await call(base, 'GET', `/api/questions?username=${me.username}&role=receiver`)).body.length).toBe(1);
    const asked = await call(base, 'POST', '/api/questions', { question: 'What do you keep about me?', detail: '', tip: 0, toUsername: other.username, toUserId: other.id }, me.token);
    expect(asked.status).toBe(201);

    expect((await call(base, 'DELETE', `/api/users/profile/${me.id}`)).status).toBe(401);
    const forbidden = await call(base, 'DELETE', `/api/users/profile/${me.id}`, undefined, other.token);
    expect(forbidden.status).toBe(403);
    expect((await call(base, 'GET', `/api/users/public/${me.username}`)).status).toBe(200);

    const deleted = await call(base, 'DELETE', `/api/users/profile/${me.id}`, undefined, me.token);
    expect(deleted.status).toBe(200);
    expect((await call(base, 'POST', '/api/users/login', { email: 'grace.deleted@example.com', password: 'a long enough password' })).status).toBe(401);
    expect((await call(base, 'GET', `/api/users/public/${me.username}`)).status).toBe(404);
    expect((await call(base, 'POST', '/api/users/refresh-token', { refreshToken: me.refreshToken })).status).toBe(401);
    expect((await fetch(`${base}${avatarUrl}`)).status).toBe(404);

    // Their public answers are gone; the question they asked no longer names them.
    await expect.poll(async () => (await call(base, 'GET', `/api/questions?username=${me.username}&role=receiver`)).body.length).toBe(0);
    await expect
      .poll(async () => JSON.stringify((await call(base, 'GET', '/api/questions?role=receiver', undefined, other.token)).body))
      .toContain('Deleted user');

    // Identity's tables, including its event store, hold neither the name nor the e-mail in readable form; nor does
    // any read model of the other services.
    const readable = async (service: keyof EmbeddedProduct['services'], tables: string[]) => {
      const { db } = product.services[service].ctx;
      for (const table of tables) {
        const dump = JSON.stringify((await sql`SELECT * FROM ${sql.table(table)}`.execute(db)).rows);
        expect(dump, `${service}.${table}`).not.toContain('grace.deleted@example.com');
        expect(dump, `${service}.${table}`).not.toContain('Grace Deleted');
      }
    };
    await readable('identity', ['users', 'events', 'outbox', 'password_resets', 'avatars', 'email_verifications', 'scheduled_jobs']);
    await readable('questions', ['questions', 'recipients', 'events', 'outbox']);
    await readable('payments', ['users', 'payout_accounts', 'tip_options', 'tips', 'ledger']);
    // The other account is untouched.
    expect((await call(base, 'GET', '/api/users/profile', undefined, other.token)).status).toBe(200);
  });
});
