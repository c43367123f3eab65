import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@ques/kit/testing';
import { startEmbedded, type EmbeddedProduct } from './embedded.js';
import { call, signup } from './test/identity-journey.js';

/** An avatar upload as the browser sends it (multipart, one file). */
async function uploadAvatar(base: string, token: string): Promise<number> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#C0392B' } }).png().toBuffer();
  const form = new FormData();
  form.append('avatar', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
  const res = await fetch(`${base}/api/users/avatar`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  await res.body?.cancel();
  return res.status;
}

/**
 * The owner's set-up checklist (issue 28, docs/adr/0056) through the BFF on the embedded default: every step is
 * computed from the state of the context that owns it, the explicit marks are kept by identity, and a reload (a new
 * read, from any device) sees the same list.
 */
describe('the set-up checklist on the embedded default', () => {
  let product: EmbeddedProduct;
  let base: string;

  beforeAll(async () => {
    product = await startEmbedded({ port: 0, dataDir: null, logLevel: 'silent', authRateLimitPerMinute: 1000 });
    base = product.url;
  });
  afterAll(async () => product?.stop());

  it('starts open for a new owner and follows each step; "link shared" and "dismissed" persist', async () => {
    const owner = await signup(base, 'Olive Onboard', 'olive.onboard@example.com');
    const checklist = async () => {
      const res = await call(base, 'GET', '/api/users/onboarding', undefined, owner.token);
      expect(res.status, res.text).toBe(200);
      return res.body as { username: string; steps: Record<string, boolean>; done: boolean; dismissed: boolean };
    };
    const open = { photo: false, bio: false, colors: false, payouts: false, tips: false, publicAnswer: false, linkShared: false };
    expect(await checklist()).toEqual({ username: owner.username, steps: open, done: false, dismissed: false });
    expect((await call(base, 'GET', '/api/users/onboarding')).status).toBe(401);

    expect(await uploadAvatar(base, owner.token)).toBe(200);
    expect((await checklist()).steps).toEqual({ ...open, photo: true });

    const profile = await call(base, 'PUT', '/api/users/profile', { bio: 'I answer questions about bread.' }, owner.token);
    expect(profile.status, profile.text).toBe(200);
    expect((await checklist()).steps).toMatchObject({ photo: true, bio: true, colors: false });
    await call(base, 'PUT', '/api/users/profile', { brandColorMain: '#0B6E4F', brandColorLight: '#F1FAF6' }, owner.token);
    expect((await checklist()).steps).toMatchObject({ colors: true, payouts: false });

    // Payouts: the test-mode onboarding completed, read from payments.
    const connected = await call(base, 'POST', '/api/payments/connect', { country: 'FR' }, owner.token);
    expect(connected.status, connected.text).toBe(200);
    await fetch(`${base}${new URL(connected.body.url, base).pathname}/complete`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
    await eventually(async () => (await checklist()).steps.payouts === true);
    expect((await checklist()).steps.tips).toBe(false);
    expect((await call(base, 'PUT', '/api/payments/tipOptions', { tippingEnabled: true }, owner.token)).status).toBe(200);
    expect((await checklist()).steps).toMatchObject({ payouts: true, tips: true, publicAnswer: false });

    // A public Q&A: a curated one is on the page at once (questions' own read model).
    const curated = await call(base, 'POST', '/api/questions', {
      question: 'What flour do you use?', detail: '', answer: 'Mostly T65.', source: '', displayOnProfile: true, isCurated: true, tip: 0,
      yourName: 'Olive Onboard', yourEmail: owner.email, toUsername: owner.username, fromUsername: owner.username, tags: [],
    }, owner.token);
    expect(curated.status, curated.text).toBe(201);
    expect((await checklist()).steps.publicAnswer).toBe(true);
    expect((await checklist()).done).toBe(false);

    // The explicit steps: marked once (twice is no second event), read back by a fresh request.
    const shared = await call(base, 'POST', '/api/users/onboarding', { mark: 'linkShared' }, owner.token);
    expect(shared.status, shared.text).toBe(200);
    expect(shared.body).toMatchObject({ done: true, dismissed: false, steps: { linkShared: true } });
    expect((await call(base, 'POST', '/api/users/onboarding', { mark: 'linkShared' }, owner.token)).status).toBe(200);
    expect(await checklist()).toEqual({ username: owner.username, steps: Object.fromEntries(Object.keys(open).map((k) => [k, true])), done: true, dismissed: false });
    expect((await call(base, 'POST', '/api/users/onboarding', { mark: 'shouted' }, owner.token)).body.message).toBe(
      'mark must be one of linkShared, dismissed, restored',
    );

    // Dismissing is the owner's choice on another account, kept across reads; "restored" brings the list back.
    const other = await signup(base, 'Dan Dismiss', 'dan.dismiss@example.com');
    expect((await call(base, 'POST', '/api/users/onboarding', { mark: 'dismissed' }, other.token)).body).toMatchObject({ done: false, dismissed: true });
    expect((await call(base, 'GET', '/api/users/onboarding', undefined, other.token)).body).toMatchObject({ done: false, dismissed: true });
    expect((await call(base, 'POST', '/api/users/onboarding', { mark: 'restored' }, other.token)).body.dismissed).toBe(false);
    // The first owner's marks are theirs alone.
    expect((await checklist()).dismissed).toBe(false);
  }, 120_000);
});
