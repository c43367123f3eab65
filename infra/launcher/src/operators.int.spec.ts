import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runIdentityCli } from '@ques/identity';
import { startEmbedded, type EmbeddedProduct } from './embedded.js';
import { call, signup, TEST_PASSWORD, verifyEmail } from './test/identity-journey.js';

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

/**
 * The first operator on the embedded default (issue 18): the documented command works on `npm start`'s data folder
 * (refused while it runs: PGlite serves one process), and `OPERATOR_EMAILS` works for a verified address; the
 * console's pages are served only to an operator's browser.
 */
describe('making the first operator on the embedded product', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ques-operators-'));
  let product: EmbeddedProduct | null = null;
  const start = async (env: Record<string, string> = {}) =>
    (product = await startEmbedded({ port: 0, dataDir, logLevel: 'silent', authRateLimitPerMinute: 1_000_000, env }));
  const cli = (...argv: string[]) => runIdentityCli(argv, { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });

  afterAll(async () => {
    await product?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('grant-operator on the data folder of a stopped `npm start`; the next sign-in carries the role', async () => {
    let running = await start();
    await signup(running.url, 'Olga First', 'olga.first@example.com');
    const owner = await signup(running.url, 'Otto Owner', 'otto.owner@example.com');
    // While the product runs, the command says what to do instead of touching its database.
    expect(await cli('grant-operator', '--email', 'olga.first@example.com')).toBe(1);
    await running.stop();
    product = null;

    expect(await cli('grant-operator', '--email', 'olga.first@example.com', '--operator', 'founder')).toBe(0);
    running = await start();
    const login = await call(running.url, 'POST', '/api/users/login', { email: 'olga.first@example.com', password: TEST_PASSWORD });
    expect(claimsOf(login.body.accessToken).op).toBe(true);
    const audit = await call(running.url, 'GET', '/api/ops/audit/identity', undefined, login.body.accessToken);
    expect(audit.status).toBe(200);
    expect(audit.body.entries[0]).toMatchObject({ action: 'operator.grant', operatorUsername: 'cli:founder' });

    // The console's pages: 404 without the operator's cookie, the app with it.
    expect((await fetch(`${running.url}/ops`)).status).toBe(404);
    expect((await call(running.url, 'POST', '/api/ops/session', undefined, owner.token)).status).toBe(404);
    const session = await call(running.url, 'POST', '/api/ops/session', undefined, login.body.accessToken);
    expect(session.status).toBe(204);
    const cookie = session.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^ques_ops=[\w.-]+; Path=\/ops; Max-Age=\d+; HttpOnly; SameSite=Strict/);
    const page = await fetch(`${running.url}/ops/archives`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toContain('<div id="root">');
    // A forged cookie (an owner's token) is a 404.
    expect((await fetch(`${running.url}/ops`, { headers: { cookie: `ques_ops=${owner.token}` } })).status).toBe(404);
    await running.stop();
    product = null;
  }, 180_000);

  it('OPERATOR_EMAILS: a listed address becomes an operator once verified', async () => {
    const running = await start({ OPERATOR_EMAILS: 'vera.verified@example.com' });
    const vera = await signup(running.url, 'Vera Verified', 'vera.verified@example.com');
    expect(claimsOf(vera.token).op).toBeUndefined();
    await verifyEmail(running.url, running.mailDir, vera.email);
    const login = await call(running.url, 'POST', '/api/users/login', { email: vera.email, password: TEST_PASSWORD });
    expect(claimsOf(login.body.accessToken).op).toBe(true);
    expect(await cli('list-operators')).toBe(1); // still running: refused
  }, 120_000);
});
