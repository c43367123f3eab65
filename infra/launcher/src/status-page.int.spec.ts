import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedProduct } from './embedded.js';
import { call, signup } from './test/identity-journey.js';

/*
 * The asker's status page `/q/{token}` is server-rendered by the BFF from the web app's own server build (ADR 0058),
 * on the embedded default with the real web build: the HTML alone carries the amount, the state, the owner's colours
 * and the times (in UTC); it is private (no-store, noindex as a header and as the one robots meta), never cached (a
 * change shows on the next request), and an unknown or malformed link is the page's own not-found with a 404.
 */

const MAIN = '#0E7C66';
const LIGHT = '#E6F4F0';
const NAME = 'Olga Statusowner';
const ANSWER = 'Yes: a fiver buys a careful answer.';
const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/** "Tue 4 Dec, 14:32" in UTC (the year when it is not this year): how the server writes a time. */
function utc(iso: string, timeZone = 'UTC'): string {
  const parts = (d: Date) =>
    Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone })
        .formatToParts(d)
        .map((p) => [p.type, p.value]),
    );
  const p = parts(new Date(iso));
  return `${p.weekday} ${p.day} ${p.month}${p.year !== parts(new Date()).year ? ` ${p.year}` : ''}, ${p.hour}:${p.minute}`;
}

describe('the status page, server-rendered by the BFF (ADR 0058)', () => {
  let product: EmbeddedProduct;
  let base: string;
  beforeAll(async () => {
    product = await startEmbedded({ port: 0, dataDir: null, logLevel: 'silent', authRateLimitPerMinute: 1000 });
    base = product.url;
  }, 60_000);
  afterAll(async () => product?.stop());

  /** The page as a browser without JavaScript gets it (React's separators between adjacent texts taken out). */
  async function page(path: string, cookie?: string) {
    const res = await fetch(`${base}${path}`, { headers: { accept: 'text/html', 'accept-encoding': 'br', ...(cookie ? { cookie } : {}) } });
    const html = (await res.text()).replaceAll('<!-- -->', '');
    return { status: res.status, html, headers: res.headers };
  }
  const press = (url: string) =>
    fetch(new URL(url, base), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });

  it('a $5 question: confirming, then held with its split and release time, then answered and charged; private and never cached', async () => {
    const owner = await signup(base, NAME, 'olga.status@example.com');
    expect((await call(base, 'PUT', '/api/users/profile', { name: NAME, brandColorMain: MAIN, brandColorLight: LIGHT }, owner.token)).status).toBe(200);
    const connected = await call(base, 'POST', '/api/payments/connect', { country: 'US' }, owner.token);
    expect(connected.status).toBe(200);
    expect((await press(`${connected.body.url}/complete`)).status).toBe(303);
    await poll(async () => (await call(base, 'GET', '/api/payments/account-status', undefined, owner.token)).body.stripeAccountStatus).toBe('completed');
    expect((await call(base, 'PUT', '/api/payments/tipOptions', { tipOptions: [{ value: '$0' }, { value: '$5' }], tippingEnabled: true }, owner.token)).status).toBe(200);

    // The browser makes the link (ADR 0052); the checkout returns to its confirmation page.
    const token = randomBytes(32).toString('base64url');
    const checkout = await call(base, 'POST', '/api/checkout/create-checkout-session', {
      donationAmount: 5,
      userId: 'guest',
      questionData: { question: 'Worth a fiver?', toUserId: owner.id, toUsername: owner.username, askedName: 'Gil Guest', askedEmail: 'gil.status@example.com', agreedToTerms: true, tip: 5, statusToken: token },
    });
    expect(checkout.status).toBe(200);

    // Back before the provider's authorization is recorded: "Confirming your payment…"; the app loads once painted (it polls).
    const confirming = await page(`/q/${token}?confirmed=1`);
    expect(confirming.status).toBe(200);
    expect(confirming.html).toContain(`Your question was sent to ${NAME}.`);
    expect(confirming.html).toContain(`$5.00 held · $4.50 to ${NAME} · $0.50 Ques fee`);
    expect(confirming.html).toContain('Confirming your payment…');
    expect(confirming.html).toContain(`/q/${token}"/><button type="button" class="button">Copy link</button>`);
    expect(confirming.html).toMatch(/<html[^>]* data-hydrate-after-paint/);
    // Private: not stored anywhere, not indexed — the header and exactly one robots meta.
    expect(confirming.headers.get('cache-control')).toBe('no-store');
    expect(confirming.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(confirming.html.match(/<meta name="robots"[^>]*>/g)).toEqual(['<meta name="robots" content="noindex, nofollow">']);
    // Only the public entry up front, and the data the page was rendered with.
    expect(confirming.html).toContain('id="ques-page-data"');
    expect(confirming.html).toMatch(/<script type="module" crossorigin id="ques-app" src="\/assets\/public-[^"]+\.js"/);

    expect((await press(`${checkout.body.url}/pay`)).status).toBe(303);
    await poll(async () => (await call(base, 'GET', `/api/question-status/${token}`)).body.status).toBe('Pending');
    const api = (await call(base, 'GET', `/api/question-status/${token}`)).body as { tip: { releaseAt: string } };

    // The next request shows the hold: complete without JavaScript, times in UTC, in the owner's colours.
    const held = await page(`/q/${token}?confirmed=1`);
    expect(held.html).not.toContain('Confirming your payment…');
    expect(held.html).toContain('data-testid="status">Pending</strong>');
    expect(held.html).toContain(`Your card is held for $5.00 — you are not charged unless ${NAME} answers.`);
    expect(held.html).toContain(`dateTime="${api.tip.releaseAt}"`);
    expect(held.html).toContain(`>${utc(api.tip.releaseAt)}</time>`);
    expect(held.html).toContain(`--brand-main:${MAIN}`);
    expect(held.html).toContain('What happens next');
    expect(held.html).toContain('>Withdraw</button>');
    expect(held.html).toContain('>Contact support</button>');
    // A browser the app has seen says its zone (the ques_tz cookie): the same page in that zone from the first byte,
    // no box reserved for other zones; a cookie naming no real zone is ignored.
    const zoned = await page(`/q/${token}?confirmed=1`, 'other=1; ques_tz=Asia%2FKolkata');
    expect(zoned.html).toContain(`>${utc(api.tip.releaseAt, 'Asia/Kolkata')}</time>`);
    expect(zoned.html).not.toContain('data-zones');
    const bogus = await page(`/q/${token}?confirmed=1`, 'ques_tz=Mars%2FOlympus');
    expect(bogus.html).toContain(`>${utc(api.tip.releaseAt)}</time>`);

    // Answered (and charged): the very next request says so — nothing was kept.
    expect((await call(base, 'PUT', `/api/questions/${checkout.body.questionId}/answer`, { answer: ANSWER, tags: [], displayOnProfile: true }, owner.token)).status).toBe(200);
    await poll(async () => (await call(base, 'GET', `/api/question-status/${token}`)).body.tip?.state).toBe('charged');
    const answered = await page(`/q/${token}`);
    expect(answered.status).toBe(200);
    expect(answered.html).toContain('data-testid="status">Answered</strong>');
    expect(answered.html).toContain(ANSWER);
    expect(answered.html).toContain('$5.00 charged');
    expect(answered.html).not.toContain('>Withdraw</button>');
    expect(answered.headers.get('cache-control')).toBe('no-store');
  }, 120_000);

  it('an unknown or malformed link: the page’s own not-found, 404, as private as the page', async () => {
    for (const path of [`/q/${randomBytes(32).toString('base64url')}`, '/q/not-a-token']) {
      const missing = await page(path);
      expect(missing.status, path).toBe(404);
      expect(missing.html, path).toContain('Page not found');
      expect(missing.html, path).toContain('This status page does not exist.');
      expect(missing.headers.get('cache-control'), path).toBe('no-store');
      expect(missing.headers.get('x-robots-tag'), path).toBe('noindex, nofollow');
    }
  });
});
