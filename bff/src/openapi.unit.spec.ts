import { validate } from '@readme/openapi-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, generateJwtKeys } from '@ques/kit';
import { buildBff } from './app.js';
import { BODY_MESSAGES } from './body.js';

 
type Json = Record<string, any>;

/**
 * Spec §7, row by row: the call, what its payload carries (body fields, or query parameters for a GET) and what
 * the client reads from its answer. Every row must be an operation of /api/openapi.json with those fields.
 */
const SPEC_CALLS: { call: string; payload?: string[]; query?: string[]; reads?: string[]; multipart?: boolean }[] = [
  { call: 'POST /api/users/login', payload: ['email', 'password'], reads: ['message', 'user', 'accessToken', 'refreshToken'] },
  { call: 'POST /api/users', payload: ['name', 'email', 'password'], reads: ['user', 'token', 'message'] },
  { call: 'POST /api/users/reset-password', payload: ['email'], reads: ['message'] },
  { call: 'POST /api/users/reset-password-confirm', payload: ['token', 'password'], reads: ['message'] },
  { call: 'POST /api/users/refresh-token', payload: ['refreshToken'], reads: ['accessToken'] },
  { call: 'GET /api/users/profile' },
  { call: 'PUT /api/users/profile', payload: ['newPassword'] },
  { call: 'POST /api/users/avatar', payload: ['avatar'], multipart: true },
  { call: 'DELETE /api/users/profile/{id}' },
  { call: 'GET /api/users/public/{username}', reads: ['name', 'bio', 'avatarUrl', 'brandColorMain', 'brandColorLight', 'archiveProfile'] },
  { call: 'GET /api/questions', query: ['username', 'role'] },
  { call: 'GET /api/questions/{id}' },
  {
    call: 'POST /api/questions',
    payload: ['question', 'detail', 'tip', 'isCurated', 'toUsername', 'recipientName', 'toUserId', 'fromUsername', 'askedName', 'askedEmail', 'yourName', 'yourEmail', 'toUserEmail', 'answer', 'source', 'displayOnProfile', 'tags'],
  },
  { call: 'PUT /api/questions/{id}/answer', payload: ['answer', 'displayOnProfile', 'replierName', 'tags', 'skipNotify'], reads: ['tip', 'tags'] },
  { call: 'PATCH /api/questions/{id}', payload: ['deletedByReceiver', 'displayOnProfile'] },
  { call: 'DELETE /api/questions/{id}' },
  { call: 'POST /api/payments/process/{id}/finalize-payment' },
  { call: 'POST /api/payments/process/{id}/cancel-payment' },
  { call: 'GET /api/payments/account-status', query: ['userId'], reads: ['stripeAccountStatus'] },
  { call: 'GET /api/payments/tipOptions', query: ['userId'], reads: ['tipOptions', 'tippingEnabled'] },
  { call: 'PUT /api/payments/tipOptions', payload: ['userId', 'tipOptions', 'tippingEnabled'] },
  { call: 'POST /api/payments/connect', payload: ['userId', 'country'], reads: ['url'] },
  { call: 'POST /api/checkout/create-checkout-session', payload: ['donationAmount', 'userId', 'questionData'], reads: ['sessionId', 'paymentIntentId', 'message'] },
  { call: 'POST /api/support/send', payload: ['category', 'title', 'description', 'captchaToken', 'userId'], reads: ['success'] },
];

/** Property names of a JSON schema, through anyOf/oneOf/allOf and $refs to components. */
function propertiesOf(schema: Json | undefined, doc: Json, seen = new Set<Json>()): Set<string> {
  const names = new Set<string>();
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return names;
  seen.add(schema);
  if (typeof schema.$ref === 'string') {
    const target = (schema.$ref).replace(/^#\//, '').split('/').reduce<Json | undefined>((node, part) => node?.[part], doc);
    return propertiesOf(target, doc, seen);
  }
  for (const name of Object.keys(schema.properties ?? {})) names.add(name);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const part of (schema[key] ?? []) as Json[]) for (const name of propertiesOf(part, doc, seen)) names.add(name);
  if (schema.items) for (const name of propertiesOf(schema.items as Json, doc, seen)) names.add(name);
  return names;
}

describe('OpenAPI 3.1 document of the whole /api', () => {
  let bff: FastifyInstance;
  let doc: Json;
  beforeAll(async () => {
    const keys = generateJwtKeys();
    bff = await buildBff({
      log: createLogger('bff-test', 'silent'),
      upstreams: {},
      jwt: { publicKey: keys.publicKey, issuer: 'ques-identity', audience: 'ques' },
      publicOrigin: 'https://app.ques.test',
    });
    const res = await bff.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    doc = res.json();
  });
  afterAll(async () => bff.close());

  it('is a valid OpenAPI 3.1 document (validated by @readme/openapi-parser)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0]);
    const errors = result.valid ? [] : result.errors;
    expect(errors, JSON.stringify(errors, null, 1).slice(0, 2000)).toEqual([]);
    expect(result.specification).toBe('OpenAPI');
    expect(result.valid).toBe(true);
  });

  it('documents only /api, not the web app, the probes, the docs themselves or the test-mode pages', () => {
    const paths = Object.keys(doc.paths as Json);
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths) {
      expect(path.startsWith('/api/'), path).toBe(true);
      expect(path.startsWith('/api/docs'), path).toBe(false);
    }
    expect(paths).not.toContain('/api/openapi.json');
  });

  it.each(SPEC_CALLS)('lists spec §7 $call with its payload, response and error messages', ({ call, payload, query, reads, multipart }) => {
    const [method, path] = call.split(' ') as [string, string];
    const operation = (doc.paths as Json)[path]?.[method.toLowerCase()] as Json | undefined;
    expect(operation, call).toBeDefined();
    expect(operation!.operationId).toEqual(expect.any(String));
    expect(operation!.summary).toEqual(expect.any(String));
    for (const name of path.match(/\{(\w+)\}/g) ?? [])
      expect((operation!.parameters as Json[]).some((p) => p.in === 'path' && `{${p.name}}` === name), `${call} ${name}`).toBe(true);
    if (query) {
      const names = (operation!.parameters as Json[] | undefined ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      expect(names, call).toEqual(expect.arrayContaining(query));
    }
    if (payload) {
      const content = operation!.requestBody?.content as Json | undefined;
      expect(content, call).toBeDefined();
      const media = multipart ? content!['multipart/form-data'] : content!['application/json'];
      expect(media, call).toBeDefined();
      expect([...propertiesOf(media!.schema as Json, doc)], call).toEqual(expect.arrayContaining(payload));
    }
    const responses = operation!.responses as Json;
    const success = Object.keys(responses).filter((status) => /^2\d\d$/.test(status));
    expect(success.length, call).toBeGreaterThan(0);
    if (reads) {
      const schema = responses[success[0]!].content?.['application/json']?.schema as Json | undefined;
      expect([...propertiesOf(schema, doc)], call).toEqual(expect.arrayContaining(reads));
    }
    // Error statuses carry `{ message, code }` and say which messages they may carry.
    const errors = Object.keys(responses).filter((status) => /^[45]\d\d$/.test(status));
    expect(errors.length, call).toBeGreaterThan(0);
    for (const status of errors) {
      const response = responses[status] as Json;
      expect(response.description, `${call} ${status}`).toMatch(/Messages: "/);
      const schema = response.content['application/json'].schema as Json;
      expect(Object.keys(schema.properties as Json), `${call} ${status}`).toEqual(expect.arrayContaining(['message', 'code']));
      expect((schema.properties as Json).message.examples.length, `${call} ${status}`).toBeGreaterThan(0);
    }
  });

  it("writes each call's messages into its errors, the spec's words included", () => {
    const ask = (doc.paths as Json)['/api/questions'].post.responses as Json;
    expect(ask['400'].description).toContain('Question title is required');
    expect(ask['400'].content['application/json'].schema.properties.message.examples).toContain(BODY_MESSAGES.tooDeep);
    const profile = (doc.paths as Json)['/api/users/profile'].get as Json;
    expect(profile.responses['401'].description).toContain('Not authorized, no token');
    expect(profile.security).toEqual([{ bearer: [] }]);
    const answer = (doc.paths as Json)['/api/questions/{id}/answer'].put as Json;
    expect((answer.parameters as Json[]).some((p) => p.in === 'header' && p.name === 'Idempotency-Key')).toBe(true);
  });

  it('serves the docs page at /api/docs with its files from the BFF itself, under the strict CSP', async () => {
    const page = await bff.inject({ method: 'GET', url: '/api/docs/' });
    const html = page.statusCode === 302 ? (await bff.inject({ method: 'GET', url: page.headers.location as string })).body : page.body;
    expect(html).toContain('swagger-ui');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    expect(html).not.toMatch(/https?:\/\//);
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    const init = await bff.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    const json = await bff.inject({ method: 'GET', url: '/api/docs/json' });
    expect(json.json().openapi).toBe('3.1.0');
  });
});
