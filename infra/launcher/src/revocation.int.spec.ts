import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMailbox, SESSION_ENDED } from '@ques/kit';
import { eventually } from '@ques/kit/testing';
import { startEmbedded, type EmbeddedProduct } from './embedded.js';
import { call, signup as signupThroughBff, TEST_PASSWORD } from './test/identity-journey.js';
import { expectRefusedEverywhereWithin, type Probe } from './test/revocation.js';

/**
 * Issue 12, defect 3, on the embedded default (PGlite, in-process bus): after logout, password change, password reset,
 * refresh-token reuse and account deletion, the old access token is refused (401, "session has ended") by questions,
 * payments and support within a second — and each of them accepted it just before.
 */
describe('revoked sessions are refused by every service within a second (embedded, through the BFF)', () => {
  let product: EmbeddedProduct;
  let base: string;
  let supportUrl: string;
  let owner: Awaited<ReturnType<typeof signupThroughBff>>;
  let clients = 0;

  beforeAll(async () => {
    product = await startEmbedded({
      port: 0,
      dataDir: null,
      logLevel: 'silent',
      authRateLimitPerMinute: 1000,
    });
    base = product.url;
    const address = product.services.support.app.server.address() as AddressInfo;
    supportUrl = `http://127.0.0.1:${address.port}`;
    owner = await signupThroughBff(base, 'Rhea Recipient', 'rhea.recipient@example.com');
  });
  afterAll(async () => product?.stop());

  /** Logs in through the BFF as the web app does. */
  const login = async (email: string, password = TEST_PASSWORD) => {
    const res = await call(base, 'POST', '/api/users/login', { email, password });
    expect(res.status).toBe(200);
    return { access: res.body.accessToken as string, refresh: res.body.refreshToken as string };
  };

  /**
   * The routes of issue 12's finding: asking and listing one's questions, saving tip options and connecting a payout
   * account, sending a support request. Support limits sends per client, so it is called as the BFF would, from a
   * client address of its own each time; its captcha is left unsolved (a token that passes gets 400, not 401).
   */
  const probes = (token: string): Probe[] => [
    {
      name: 'questions: ask as a signed-in user',
      send: () =>
        call(
          base,
          'POST',
          '/api/questions',
          {
            question: 'Does my old token still work?',
            detail: '',
            tip: 0,
            isCurated: false,
            toUsername: owner.username,
            toUserId: owner.id,
            agreedToTerms: true,
          },
          token,
        ),
      accepted: [201],
    },
    {
      name: 'questions: list my questions',
      send: () => call(base, 'GET', '/api/questions', undefined, token),
      accepted: [200],
    },
    {
      name: 'payments: save tip options',
      send: () =>
        call(
          base,
          'PUT',
          '/api/payments/tipOptions',
          { tipOptions: [{ value: '$0' }, { value: '$5' }], tippingEnabled: false },
          token,
        ),
      accepted: [200],
    },
    {
      name: 'payments: connect a payout account',
      send: () => call(base, 'POST', '/api/payments/connect', { country: 'CA' }, token),
      accepted: [200],
    },
    {
      name: 'support: send a request',
      send: async () => {
        clients += 1;
        const res = await fetch(`${supportUrl}/api/support/send`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${token}`,
            'x-forwarded-for': `127.0.${Math.floor(clients / 250)}.${(clients % 250) + 1}`,
          },
          body: JSON.stringify({
            category: 'Billing Issue',
            title: 'Old token',
            description: 'Still signed in?',
            captchaToken: 'unsolved',
          }),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : null };
      },
      accepted: [400, 403],
    },
  ];

  /** Every probe accepts the token (the services learn about new users from identity's events, hence eventually). */
  const acceptedEverywhere = async (token: string) => {
    for (const probe of probes(token)) {
      await eventually(async () => probe.accepted.includes((await probe.send()).status), 10_000, 50).catch(
        (err: unknown) => {
          throw new Error(`${probe.name} did not accept a valid token: ${String(err)}`);
        },
      );
    }
  };

  it('after logout', async () => {
    const me = await signupThroughBff(base, 'Lou Logout', 'lou.logout@example.com');
    const session = await login(me.email);
    await acceptedEverywhere(session.access);
    expect(
      (await call(base, 'POST', '/api/users/logout', { refreshToken: session.refresh }, session.access))
        .status,
    ).toBe(200);
    await expectRefusedEverywhereWithin(probes(session.access), 1_000, SESSION_ENDED);
    // The other session of the same person is untouched.
    await acceptedEverywhere(me.token);
  });

  it('after a password change (every other session; the one that changed it stays)', async () => {
    const me = await signupThroughBff(base, 'Pat Password', 'pat.password@example.com');
    const other = await login(me.email);
    const current = await login(me.email);
    await acceptedEverywhere(other.access);
    expect(
      (
        await call(
          base,
          'PUT',
          '/api/users/profile',
          { newPassword: 'a brand new passphrase', currentPassword: TEST_PASSWORD },
          current.access,
        )
      ).status,
    ).toBe(200);
    await expectRefusedEverywhereWithin(probes(other.access), 1_000, SESSION_ENDED);
    await expectRefusedEverywhereWithin(probes(me.token), 1_000, SESSION_ENDED);
    await acceptedEverywhere(current.access);
  });

  it('after a password reset', async () => {
    const me = await signupThroughBff(base, 'Remy Reset', 'remy.reset@example.com');
    const session = await login(me.email);
    await acceptedEverywhere(session.access);
    expect((await call(base, 'POST', '/api/users/reset-password', { email: me.email })).status).toBe(200);
    const mail = await eventually(async () =>
      readMailbox(product.mailDir).find((m) => m.to.includes(me.email) && /reset/i.test(m.subject)),
    );
    const token = decodeURIComponent(/reset-password-confirm\?token=([\w-]+)/.exec(mail.text)![1]!);
    expect(
      (
        await call(base, 'POST', '/api/users/reset-password-confirm', {
          token,
          password: 'a fresh new passphrase',
        })
      ).status,
    ).toBe(200);
    await expectRefusedEverywhereWithin(probes(session.access), 1_000, SESSION_ENDED);
  });

  it('after a refresh token is reused (the whole session, old and new access tokens)', async () => {
    const me = await signupThroughBff(base, 'Ray Reuse', 'ray.reuse@example.com');
    const session = await login(me.email);
    const rotated = await call(base, 'POST', '/api/users/refresh-token', { refreshToken: session.refresh });
    expect(rotated.status).toBe(200);
    await acceptedEverywhere(rotated.body.accessToken);
    expect(
      (await call(base, 'POST', '/api/users/refresh-token', { refreshToken: session.refresh })).status,
    ).toBe(401);
    await expectRefusedEverywhereWithin(probes(rotated.body.accessToken), 1_000, SESSION_ENDED);
    await expectRefusedEverywhereWithin(probes(session.access), 1_000, SESSION_ENDED);
  });

  it('after the account is deleted', async () => {
    const me = await signupThroughBff(base, 'Dana Deleted', 'dana.deleted@example.com');
    const session = await login(me.email);
    await acceptedEverywhere(session.access);
    expect((await call(base, 'DELETE', `/api/users/profile/${me.id}`, undefined, me.token)).status).toBe(200);
    await expectRefusedEverywhereWithin(
      [...probes(session.access), ...probes(me.token)],
      1_000,
      SESSION_ENDED,
    );
  });
});
