import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN_REQUIRED } from '@ques/contracts';
import { readMailbox, registeredRoutes } from '@ques/kit';
import { startEmbedded, type EmbeddedProduct } from './embedded.js';
import { call, identityJourney } from './test/identity-journey.js';
import { questionsJourney } from './test/questions-journey.js';

describe('embedded default (PGlite + in-process bus), through the BFF', () => {
  let product: EmbeddedProduct;
  beforeAll(async () => {
    product = await startEmbedded({
      port: 0,
      dataDir: null,
      logLevel: 'silent',
      authRateLimitPerMinute: 1000,
    });
  });
  afterAll(async () => product?.stop());

  it('walks the identity journey', async () => {
    const seen: string[] = [];
    const sub = await product.bus.subscribe({
      durable: 'test--identity-events',
      context: 'identity',
      subjects: ['ques.identity.>'],
      handler: async (envelope) => void seen.push(envelope.type),
      onPoison: async () => {},
    });
    const { username } = await identityJourney(product.url, 'embedded');
    expect(username).toBe('ada-lovelace');
    await expect.poll(() => seen.filter((t) => t === 'UserRegistered').length).toBe(2);
    expect(seen).toContain('ProfileUpdated');
    expect(seen).toContain('PasswordChanged');
    await sub.stop();
  });

  it('walks the questions journey and publishes its events', async () => {
    const seen: string[] = [];
    const sub = await product.bus.subscribe({
      durable: 'test--questions-events',
      context: 'questions',
      subjects: ['ques.questions.>'],
      handler: async (envelope) => void seen.push(envelope.type),
      onPoison: async () => {},
    });
    await questionsJourney(product.url, 'embedded', product.mailDir);
    for (const type of [
      'QuestionAsked',
      'AnswerPosted',
      'AnswerEdited',
      'QuestionVisibilityChanged',
      'QuestionDeletedByReceiver',
      'QuestionWithdrawn',
      'QuestionCurated',
    ]) {
      expect(seen).toContain(type);
    }
    await sub.stop();
  });

  it("writes every mail as a multipart/alternative .eml (text/plain and text/html) with an .html preview beside it", async () => {
    // After the questions journey: the owner's verification mail, their new-question mails, the guests' receipts.
    const files = readdirSync(product.mailDir).filter((f) => f.endsWith('.eml'));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      const raw = readFileSync(join(product.mailDir, file), 'utf8');
      const head = raw.slice(0, raw.indexOf('\n\n'));
      expect(head, file).toMatch(/^Content-Type: multipart\/alternative;/m);
      expect(raw, file).toMatch(/^Content-Type: text\/plain; charset=utf-8$/m);
      expect(raw, file).toMatch(/^Content-Type: text\/html; charset=utf-8$/m);
      expect(existsSync(join(product.mailDir, file.replace(/\.eml$/, '.html'))), file).toBe(true);
    }
    const receipt = readMailbox(product.mailDir).find((m) => m.subject.startsWith('Your question to'))!;
    expect(receipt.html).toMatch(/<html[^>]* lang="en"/);
    expect(receipt.text).toMatch(/\/q\/[A-Za-z0-9_-]{43}/);
  });

  it('serves health, readiness and security headers', async () => {
    const health = await call(product.url, 'GET', '/health');
    expect(health.body).toEqual({ status: 'ok', service: 'bff' });
    const ready = await call(product.url, 'GET', '/ready');
    expect(ready.status).toBe(200);
    // /health is answered before Fastify's hooks (issue 17); every routed response carries the security headers.
    expect(ready.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(ready.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('carries the internal token on every internal call (issue 33, ADR 0060): every /internal/* route refuses a call without it, 401', async () => {
    const { identity, questions, payments, support } = product.services;
    const token = questions.ctx.config.INTERNAL_API_TOKEN;
    // One fresh token per start, the same for every service that makes or serves internal calls.
    expect(token.length).toBeGreaterThanOrEqual(16);
    expect([identity.ctx.config.INTERNAL_API_TOKEN, payments.ctx.config.INTERNAL_API_TOKEN]).toEqual([token, token]);
    const tried: string[] = [];
    for (const service of [identity, questions, payments, support]) {
      const internal = registeredRoutes(service.app).filter((r) => r.url.startsWith('/internal/') && r.method !== 'HEAD');
      for (const route of internal) {
        const url = `${service.url}${route.url.replace(':userId', '00000000-0000-4000-8000-000000000000')}`;
        const method = String(route.method);
        const send = (headers: Record<string, string>) =>
          fetch(url, { method, headers: { 'content-type': 'application/json', ...headers }, ...(method === 'POST' ? { body: '{}' } : {}) });
        for (const headers of [{}, { 'x-internal-token': 'a-guess-of-the-token-0000' }, { 'x-internal-token': `${token}x` }] as Record<string, string>[]) {
          const res = await send(headers);
          expect([res.status, (await res.json()).message], `${method} ${route.url}`).toEqual([401, INTERNAL_TOKEN_REQUIRED]);
        }
        // With the token the launcher gave every service the call goes through (here: 400 for the empty body, or 200).
        expect([200, 400], `${method} ${route.url}`).toContain((await send({ 'x-internal-token': token })).status);
        tried.push(`${service.name} ${method} ${route.url}`);
      }
    }
    expect(tried.sort()).toEqual([
      'payments GET /internal/exports/payments/:userId',
      'payments GET /internal/onboarding/payments/:userId',
      'questions GET /internal/exports/questions/:userId',
      'questions GET /internal/onboarding/questions/:userId',
      'questions POST /internal/questions/screen',
      'questions POST /internal/questions/tipped',
    ]);
  });

});
