import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMailbox } from '@ques/kit';
import { encodeCaptchaToken } from '@ques/support';
import { startEmbedded, type EmbeddedProduct } from './embedded.js';
import { call } from './test/identity-journey.js';

describe('support requests through the BFF on the embedded default', () => {
  let product: EmbeddedProduct;
  beforeAll(async () => {
    product = await startEmbedded({ port: 0, dataDir: null, logLevel: 'silent', authRateLimitPerMinute: 1000 });
  });
  afterAll(async () => product?.stop());

  async function solved(): Promise<string> {
    const res = await call(product.url, 'GET', '/api/support/captcha');
    expect(res.status).toBe(200);
    const challenge = res.body as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey, timeout: 20_000 });
    if (!solution) throw new Error('could not solve the challenge');
    return encodeCaptchaToken(challenge, solution);
  }

  it('refuses a request without, or with a forged, or with a reused captcha, and mails a valid one to the support inbox', async () => {
    const events: string[] = [];
    const sub = await product.bus.subscribe({
      durable: 'test--support-events',
      context: 'support',
      subjects: ['ques.support.>'],
      handler: async (envelope) => void events.push(envelope.type),
      onPoison: async () => {},
    });
    const signup = await call(product.url, 'POST', '/api/users', { name: 'Help Seeker', email: 'help.seeker@example.com', password: 'a long enough password' });
    const token = signup.body.token as string;
    const request = { category: 'Billing Issue', title: 'Tip not released', description: 'My tip still shows as held.', userId: 'spoofed-user-id' };

    const missing = await call(product.url, 'POST', '/api/support/send', { ...request, captchaToken: '' }, token);
    expect(missing.status).toBe(400);
    const forged = await call(product.url, 'POST', '/api/support/send', { ...request, captchaToken: Buffer.from(JSON.stringify({ challenge: {}, solution: {} })).toString('base64') }, token);
    expect([400, 403]).toContain(forged.status);
    const empty = await call(product.url, 'POST', '/api/support/send', { ...request, title: '  ', captchaToken: await solved() }, token);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Please fill in all required fields.');

    const captchaToken = await solved();
    const sent = await call(product.url, 'POST', '/api/support/send', { ...request, captchaToken }, token);
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ success: true });
    const replayed = await call(product.url, 'POST', '/api/support/send', { ...request, captchaToken }, token);
    expect(replayed.status).toBe(403);

    await expect.poll(() => events.filter((t) => t === 'SupportRequested').length, { timeout: 10_000 }).toBe(1);
    const mail = async () => readMailbox(product.mailDir).filter((m) => m.to.includes('support@ques.localhost'));
    await expect.poll(async () => (await mail()).length, { timeout: 10_000 }).toBe(1);
    const [inboxMail] = await mail();
    expect(inboxMail!.text).toContain('Tip not released');
    expect(inboxMail!.text).toContain('help-seeker');
    expect(inboxMail!.text).not.toContain('spoofed-user-id');
    await sub.stop();
  });
});
