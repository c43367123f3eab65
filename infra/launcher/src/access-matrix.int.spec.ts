import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_CALLS,
  BROWSER_CALLS,
  claimsApi,
  claimsOpsApi,
  curationOpsApi,
  opsApi,
  OPS_SERVICES,
  opsStreamsApi,
  questionsOpsApi,
  supportOpsApi,
  type ApiCall,
} from '@ques/contracts';
import { startEmbedded, type EmbeddedProduct } from './embedded.js';
import { call, signup, verifyEmail } from './test/identity-journey.js';
import { signupOperator } from './test/operators.js';

/**
 * The access matrix (issue 12): user B, and a guest, against each of user A's resources on every route that names
 * one — 100 % refused — and no private field in any public answer. The list of routes comes from the declarations:
 * a new call with a path parameter fails the first test until it has a row here.
 */

type Who = 'bob' | 'guest';
interface Row {
  method: ApiCall['method'];
  path: string;
  /** The concrete URL naming one of Ada's resources. */
  url: () => string;
  body?: unknown;
}

/** Path-parameter routes that name no private resource of anyone (public by design), with the reason. */
/** Issue 15, reach (docs/adr/0029): public by design, like the profile they are shown on. */
const REACH_PUBLIC_BY_DESIGN: Record<string, string> = {
  'GET /api/trust-stats/:username':
    "an owner's public trust stats (aggregates only, figures from 5 answered questions; private questions are never named)",
};

const PUBLIC_BY_DESIGN: Record<string, string> = {
  ...REACH_PUBLIC_BY_DESIGN,
  'GET /api/users/public/:username': 'the public profile (checked below for private fields)',
  'GET /api/handles/:handle/availability':
    'whether a public link can be chosen (issue 28): available or not and why, never who holds it (checked below)',
  'GET /api/asking/status/:username': 'whether a page takes questions (public: it replaces the ask button)',
  'GET /images/avatars/:userId/:file': 'public avatar images',
  'GET /api/asking/similar/:username':
    "an owner's public answers matching a title (checked below for private fields)",
  // The test-mode provider's hosted pages are keyed by unguessable session/account ids, as Stripe's are.
  'GET /pay/test/checkout/:id': 'hosted checkout page (capability URL)',
  'POST /pay/test/checkout/:id/pay': 'hosted checkout page (capability URL)',
  'POST /pay/test/checkout/:id/cancel': 'hosted checkout page (capability URL)',
  'GET /pay/test/onboarding/:accountId': 'hosted onboarding page (capability URL)',
  'POST /pay/test/onboarding/:accountId/complete': 'hosted onboarding page (capability URL)',
};

/** Fields that never appear in a public answer, at any depth. */
const PRIVATE_FIELDS = [
  'email',
  'askedEmail',
  'askerEmail',
  'password',
  'passwordHash',
  'password_hash',
  'askerUserId',
  'fromUserId',
  'device',
  'refreshToken',
];

function privateFieldsIn(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => privateFieldsIn(item, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => [
      ...(PRIVATE_FIELDS.includes(key) ? [`${path}.${key}`] : []),
      ...privateFieldsIn(inner, `${path}.${key}`),
    ]);
  }
  return [];
}

const key = (method: string, path: string) => `${method} ${path}`;
const GUESSED_TOKEN = 'A'.repeat(43);

describe('access matrix: another user and a guest against every route that names a resource', () => {
  let product: EmbeddedProduct;
  let ada: Awaited<ReturnType<typeof signup>>;
  let bob: Awaited<ReturnType<typeof signup>>;
  let carol: Awaited<ReturnType<typeof signup>>;
  /** A guest's pending question to Ada (private to her), one she answered and shows, one she asked Carol. */
  let pendingToAda: string;
  let answeredByAda: string;
  let askedByAda: string;
  let adaBlock: string;
  /** Issue 15: one of Ada's data exports. */
  let adaExport: string;
  let rows: Row[];

  const ask = async (
    to: { id: string; username: string },
    question: string,
    token?: string,
    detail = 'Private detail of the asker',
  ) => {
    const res = await call(
      product.url,
      'POST',
      '/api/questions',
      {
        question,
        detail,
        tip: 0,
        isCurated: false,
        toUsername: to.username,
        toUserId: to.id,
        ...(token ? {} : { askedName: 'Gus Guest', askedEmail: 'gus.guest@example.com' }),
        agreedToTerms: true,
      },
      token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };

  beforeAll(async () => {
    product = await startEmbedded({
      port: 0,
      dataDir: null,
      logLevel: 'silent',
      authRateLimitPerMinute: 1_000_000,
    });
    ada = await signup(product.url, 'Ada Matrix', 'ada.matrix@example.com');
    bob = await signup(product.url, 'Bob Matrix', 'bob.matrix@example.com');
    carol = await signup(product.url, 'Carol Matrix', 'carol.matrix@example.com');
    await verifyEmail(product.url, product.mailDir, ada.email);
    pendingToAda = await ask(ada, 'A pending question only Ada may see');
    answeredByAda = await ask(ada, 'An answered public question', undefined, 'A detail fit to publish');
    const answered = await call(
      product.url,
      'PUT',
      `/api/questions/${answeredByAda}/answer`,
      { answer: 'The public answer.' },
      ada.token,
    );
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    askedByAda = await ask(carol, 'A question Ada asked Carol', ada.token);
    const blocked = await call(
      product.url,
      'POST',
      `/api/questions/${pendingToAda}/block`,
      undefined,
      ada.token,
    );
    expect(blocked.status, JSON.stringify(blocked.body)).toBeLessThan(300);
    adaBlock = blocked.body.id as string;
    const settings = await call(
      product.url,
      'PUT',
      '/api/asking/settings',
      { blockedWords: ['adasecretword'] },
      ada.token,
    );
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);

    // Issue 15 (data export): Ada asks for hers.
    const requested = await call(product.url, 'POST', '/api/users/exports', {}, ada.token);
    expect(requested.status, JSON.stringify(requested.body)).toBe(202);
    adaExport = requested.body.id as string;

    rows = [
      { method: 'GET', path: '/api/questions/:id', url: () => `/api/questions/${pendingToAda}` },
      { method: 'GET', path: '/api/questions/:id', url: () => `/api/questions/${askedByAda}` },
      {
        method: 'PUT',
        path: '/api/questions/:id/answer',
        url: () => `/api/questions/${pendingToAda}/answer`,
        body: { answer: 'Not yours to answer.' },
      },
      {
        method: 'PATCH',
        path: '/api/questions/:id',
        url: () => `/api/questions/${answeredByAda}`,
        body: { displayOnProfile: false },
      },
      {
        method: 'PATCH',
        path: '/api/questions/:id',
        url: () => `/api/questions/${pendingToAda}`,
        body: { deletedByReceiver: true },
      },
      { method: 'DELETE', path: '/api/questions/:id', url: () => `/api/questions/${pendingToAda}` },
      { method: 'DELETE', path: '/api/questions/:id', url: () => `/api/questions/${askedByAda}` },
      { method: 'DELETE', path: '/api/questions/:id', url: () => `/api/questions/${answeredByAda}` },
      { method: 'POST', path: '/api/questions/:id/block', url: () => `/api/questions/${pendingToAda}/block` },
      { method: 'DELETE', path: '/api/asking/blocks/:id', url: () => `/api/asking/blocks/${adaBlock}` },
      { method: 'DELETE', path: '/api/users/profile/:id', url: () => `/api/users/profile/${ada.id}` },
      {
        method: 'POST',
        path: '/api/payments/process/:id/finalize-payment',
        url: () => `/api/payments/process/${pendingToAda}/finalize-payment`,
      },
      {
        method: 'POST',
        path: '/api/payments/process/:id/cancel-payment',
        url: () => `/api/payments/process/${askedByAda}/cancel-payment`,
      },
      {
        method: 'POST',
        path: '/api/questions/:id/status-link',
        url: () => `/api/questions/${askedByAda}/status-link`,
      },
      // The asker's status page is a capability URL (a 256-bit token): a guessed one, or a question id, reaches nothing.
      {
        method: 'GET',
        path: '/api/question-status/:token',
        url: () => `/api/question-status/${GUESSED_TOKEN}`,
      },
      {
        method: 'GET',
        path: '/api/question-status/:token',
        url: () => `/api/question-status/${pendingToAda}`,
      },
      {
        method: 'POST',
        path: '/api/question-status/:token/confirm',
        url: () => `/api/question-status/${GUESSED_TOKEN}/confirm`,
      },
      {
        method: 'POST',
        path: '/api/question-status/:token/withdraw',
        url: () => `/api/question-status/${pendingToAda}/withdraw`,
      },
      // Issue 15 (data export): Ada's export, its state and its ZIP, are hers alone.
      { method: 'GET', path: '/api/users/exports/:id', url: () => `/api/users/exports/${adaExport}` },
      {
        method: 'GET',
        path: '/api/users/exports/:id/download',
        url: () => `/api/users/exports/${adaExport}/download`,
      },
      // Issue 18: the operator console's routes (operators only; everyone else gets the 404 of a path that does not
      // exist). Hiding Ada's public answer would change her inbox, which the test checks did not happen.
      {
        method: 'POST',
        path: questionsOpsApi.hideAnswer.path,
        url: () => `/api/ops/questions/${answeredByAda}/hide`,
        body: { reason: 'Not an operator' },
      },
      {
        method: 'POST',
        path: supportOpsApi.answerRequest.path,
        url: () => `/api/ops/support/requests/${ada.id}/answer`,
        body: { note: 'Not an operator' },
      },
      {
        method: 'POST',
        path: supportOpsApi.resolveReport.path,
        url: () => `/api/ops/support/reports/${ada.id}/resolve`,
        body: { resolution: 'dismissed' },
      },
      // Issue 18, archive curation: the console's avatar and curated-Q&A calls against Ada's profile and answer
      // (she is no archive; an operator would be refused too, everyone else never gets that far).
      {
        method: 'POST',
        path: opsApi.archiveAvatar.path,
        url: () => `/api/ops/archives/${ada.id}/avatar`,
        body: {},
      },
      { method: 'GET', path: curationOpsApi.listCurated.path, url: () => `/api/ops/archives/${ada.id}/curated` },
      {
        method: 'POST',
        path: curationOpsApi.curate.path,
        url: () => `/api/ops/archives/${ada.id}/curated`,
        body: { question: 'Not an operator', answer: 'No.', source: 'Nowhere' },
      },
      {
        method: 'PUT',
        path: curationOpsApi.editCurated.path,
        url: () => `/api/ops/curated/${answeredByAda}`,
        body: { answer: 'Not an operator', source: 'Nowhere' },
      },
      {
        method: 'PATCH',
        path: curationOpsApi.showCurated.path,
        url: () => `/api/ops/curated/${answeredByAda}`,
        body: { displayOnProfile: false },
      },
      { method: 'DELETE', path: curationOpsApi.deleteCurated.path, url: () => `/api/ops/curated/${answeredByAda}` },
      ...OPS_SERVICES.flatMap((service): Row[] => [
        {
          method: 'POST',
          path: opsStreamsApi[service].retry.path,
          url: () => `/api/ops/streams/${service}/dead-letters/1/retry`,
        },
        {
          method: 'POST',
          path: opsStreamsApi[service].drop.path,
          url: () => `/api/ops/streams/${service}/dead-letters/1/drop`,
        },
        {
          method: 'GET',
          path: opsStreamsApi[service].job.path,
          url: () => `/api/ops/streams/${service}/jobs/${ada.id}`,
        },
      ]),
    ];
  }, 120_000);

  afterAll(async () => {
    await product?.stop();
  });

  it('has a row for every declared route that names a resource (or says why it is public)', () => {
    const covered = new Set([
      ...(rows ?? []).map((r) => key(r.method, r.path)),
      ...Object.keys(PUBLIC_BY_DESIGN),
    ]);
    // Operator routes are rows of the operator matrix below, every one of them (from the declarations).
    const naming = [...API_CALLS, ...BROWSER_CALLS]
      .filter((c) => c.path.includes(':') && c.auth !== 'operator')
      .map((c) => key(c.method, c.path));
    expect(naming.filter((k) => !covered.has(k))).toEqual([]);
  });

  for (const who of ['bob', 'guest'] as const satisfies readonly Who[]) {
    it(`refuses ${who === 'bob' ? 'another user' : 'a guest'} on every one of Ada's resources, and changes nothing`, async () => {
      const before = await call(product.url, 'GET', '/api/questions?role=receiver', undefined, ada.token);
      const outcomes = [];
      for (const row of rows) {
        const res = await call(
          product.url,
          row.method,
          row.url(),
          row.body,
          who === 'bob' ? bob.token : undefined,
        );
        outcomes.push({ route: `${row.method} ${row.url()}`, status: res.status });
      }
      // GET of the answered, shown question is public; every row here names a private resource or a change.
      const allowed = new Set([401, 403, 404]);
      expect(outcomes.filter((o) => !allowed.has(o.status))).toEqual([]);
      expect(outcomes).toHaveLength(rows.length);
      // Nothing changed: Ada's inbox, her block and her account are as they were.
      const after = await call(product.url, 'GET', '/api/questions?role=receiver', undefined, ada.token);
      expect(after.body).toEqual(before.body);
      expect(
        (await call(product.url, 'GET', '/api/asking/blocks', undefined, ada.token)).body.map(
          (b: { id: string }) => b.id,
        ),
      ).toEqual([adaBlock]);
      expect((await call(product.url, 'GET', '/api/users/profile', undefined, ada.token)).status).toBe(200);
    });
  }

  it('refuses every operator console route to a signed-in non-operator and to a guest (issue 18)', async () => {
    const operatorCalls = [
      ...OPS_SERVICES.flatMap((service) => Object.values(opsStreamsApi[service])),
      supportOpsApi.listRequests,
      supportOpsApi.answerRequest,
      supportOpsApi.listReports,
      supportOpsApi.resolveReport,
      questionsOpsApi.hideAnswer,
      opsApi.auditSupport,
      opsApi.auditPayments,
      ...Object.values(curationOpsApi),
      // Issue 18, claims (ADR 0034): listing, approving and rejecting are operators' only.
      claimsOpsApi.list,
      claimsOpsApi.approve,
      claimsOpsApi.reject,
    ];
    const bodies: Record<string, unknown> = {
      [questionsOpsApi.hideAnswer.id]: { reason: 'x' },
      [curationOpsApi.curate.id]: { question: 'q', answer: 'a', source: 's' },
      [curationOpsApi.editCurated.id]: { answer: 'a', source: 's' },
      [curationOpsApi.showCurated.id]: { displayOnProfile: false },
      [claimsOpsApi.reject.id]: { reason: 'x' },
      [supportOpsApi.answerRequest.id]: { note: 'x' },
      [supportOpsApi.resolveReport.id]: { resolution: 'dismissed' },
    };
    const outcomes = [];
    for (const c of operatorCalls) {
      const url = c.path
        .replace(':id', c.path.includes('dead-letters') ? '1' : answeredByAda)
        .replace(':jobId', ada.id);
      const body = bodies[c.id] ?? (c.path.endsWith('/republish') ? { from: 0 } : undefined);
      for (const token of [bob.token, undefined]) {
        const res = await call(product.url, c.method, url, body, token);
        outcomes.push({ call: c.id, token: token ? 'bob' : 'guest', status: res.status });
      }
    }
    expect(outcomes.filter((o) => ![401, 403, 404].includes(o.status))).toEqual([]);
    // A signed-in non-operator is told nothing exists there.
    expect(outcomes.filter((o) => o.token === 'bob' && o.status !== 404)).toEqual([]);
    // Ada's answer is still public.
    const list = await call(product.url, 'GET', `/api/questions?username=${ada.username}&role=receiver`);
    expect((list.body as { id: string }[]).map((q) => q.id)).toEqual([answeredByAda]);
  });

  it('lets only a signed-in person claim an archive profile; their claim is theirs and only operators decide it (issue 18)', async () => {
    const otto = await signupOperator(product, 'Otto Matrix', 'otto.matrix@example.com');
    const created = await call(product.url, 'POST', '/api/ops/archives', { name: 'Matrix Archive', sources: 'Interviews' }, otto.token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const body = { username: created.body.username, method: 'note', note: 'This is me.' };
    // A guest may not claim, nor read anyone's claims.
    const guest = await call(product.url, claimsApi.submit.method, claimsApi.submit.path, body);
    expect(guest.status).toBe(401);
    expect((await call(product.url, claimsApi.mine.method, claimsApi.mine.path)).status).toBe(401);
    // Ada claims it; Bob sees none of it and can neither list, approve nor reject it.
    const sent = await call(product.url, claimsApi.submit.method, claimsApi.submit.path, body, ada.token);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const claimId = sent.body.id as string;
    expect((await call(product.url, 'GET', claimsApi.mine.path, undefined, bob.token)).body.claims).toEqual([]);
    for (const [method, url, payload] of [
      ['GET', '/api/ops/claims', undefined],
      ['POST', `/api/ops/claims/${claimId}/approve`, undefined],
      ['POST', `/api/ops/claims/${claimId}/reject`, { reason: 'Bob says no' }],
    ] as const) {
      for (const token of [bob.token, ada.token, undefined]) expect((await call(product.url, method, url, payload, token)).status, url).toBe(404);
    }
    const mine = await call(product.url, 'GET', claimsApi.mine.path, undefined, ada.token);
    expect(mine.body.claims).toEqual([expect.objectContaining({ id: claimId, status: 'pending' })]);
    // The public profile of the claimed archive shows nothing of the claim.
    const profile = await call(product.url, 'GET', `/api/users/public/${created.body.username}`);
    expect(privateFieldsIn(profile.body)).toEqual([]);
    expect(profile.text).not.toContain('This is me.');
  });

  it("shows another user only their own lists and settings, never Ada's", async () => {
    const own = await call(product.url, 'GET', '/api/questions', undefined, bob.token);
    expect(own.status).toBe(200);
    const ids = (own.body as { id: string }[]).map((q) => q.id);
    for (const id of [pendingToAda, answeredByAda, askedByAda]) expect(ids).not.toContain(id);
    expect((await call(product.url, 'GET', '/api/asking/blocks', undefined, bob.token)).body).toEqual([]);
    expect(
      (await call(product.url, 'GET', '/api/asking/settings', undefined, bob.token)).body.blockedWords,
    ).toEqual([]);
    const earnings = await call(product.url, 'GET', '/api/payments/earnings', undefined, bob.token);
    expect(JSON.stringify(earnings.body)).not.toContain(ada.id);
    // Without a token, the caller's own lists and settings are refused outright.
    for (const path of [
      '/api/questions?role=receiver',
      '/api/asking/blocks',
      '/api/asking/settings',
      '/api/payments/earnings',
      '/api/users/profile',
    ]) {
      expect((await call(product.url, 'GET', path)).status, path).toBe(401);
    }
  });

  it('keeps private fields out of every public answer', async () => {
    const publicReads = [
      `/api/users/public/${ada.username}`,
      `/api/questions?username=${ada.username}&role=receiver`,
      `/api/questions/${answeredByAda}`,
      `/api/asking/status/${ada.username}`,
      `/api/asking/similar/${ada.username}?q=${encodeURIComponent('answered public question')}`,
      '/api/sitemap/profiles',
      '/api/sitemap/answers',
      `/api/handles/${ada.username}/availability`,
    ];
    for (const path of publicReads) {
      for (const token of [undefined, bob.token]) {
        const res = await call(product.url, 'GET', path, undefined, token);
        expect(res.status, path).toBe(200);
        expect(privateFieldsIn(res.body), path).toEqual([]);
        expect(res.text, path).not.toContain('gus.guest@example.com');
        expect(res.text, path).not.toContain('Private detail of the asker');
      }
    }
    // Issue 28: a taken handle's check says only that, never whose it is.
    const check = await call(product.url, 'GET', `/api/handles/${ada.username}/availability`, undefined, bob.token);
    expect(Object.keys(check.body).sort()).toEqual(['available', 'handle', 'reason']);
    expect(check.text).not.toContain(ada.id);
    // The public list holds the answered question only: the pending one is nobody's business.
    const list = await call(product.url, 'GET', `/api/questions?username=${ada.username}&role=receiver`);
    expect((list.body as { id: string }[]).map((q) => q.id)).toEqual([answeredByAda]);
  });

  /**
   * The operator matrix (issue 18): every declared operator call (`auth: 'operator'`, path parameters filled with a
   * random id) refuses a guest and a signed-in owner with a 404 — at the BFF, and again at the service that answers
   * it when called directly — and changes nothing; an operator's token passes the guard.
   */
  const OPERATOR_CALLS = API_CALLS.filter((c) => c.auth === 'operator');
  const concrete = (path: string) => path.replace(/:\w+/g, '00000000-0000-4000-8000-000000000000');

  it('declares operator calls, all under /api/ops', () => {
    expect(OPERATOR_CALLS.length).toBeGreaterThan(0);
    expect(OPERATOR_CALLS.filter((c) => !c.path.startsWith('/api/ops/')).map((c) => c.path)).toEqual([]);
  });

  for (const who of ['bob', 'guest'] as const satisfies readonly Who[]) {
    it(`refuses ${who === 'bob' ? 'a signed-in owner' : 'a guest'} with 404 on every operator route, at the BFF and at the service`, async () => {
      const token = who === 'bob' ? bob.token : undefined;
      const outcomes = [];
      for (const c of OPERATOR_CALLS) {
        const url = concrete(c.path);
        const body = c.method === 'GET' || c.method === 'DELETE' ? undefined : {};
        const viaBff = await call(product.url, c.method, url, body, token);
        const direct = await call(product.services[c.service].url, c.method, url, body, token);
        outcomes.push({
          route: `${c.method} ${c.path}`,
          bff: viaBff.status,
          service: direct.status,
          message: viaBff.body?.message,
        });
      }
      expect(outcomes.filter((o) => o.bff !== 404 || o.service !== 404 || o.message !== 'Not found')).toEqual(
        [],
      );
      expect(outcomes).toHaveLength(OPERATOR_CALLS.length);
      // The console's pages are a 404 too, and so is the session cookie the console asks for.
      for (const page of ['/ops', '/ops/archives'])
        expect((await fetch(`${product.url}${page}`)).status, page).toBe(404);
      expect((await call(product.url, 'POST', '/api/ops/session', undefined, token)).status).toBe(404);
    });
  }

  it("lets an operator's token through the guard of every operator route", async () => {
    const olga = await signupOperator(product, 'Olga Matrix', 'olga.matrix@example.com');
    for (const c of OPERATOR_CALLS) {
      const url = concrete(c.path);
      const body = c.method === 'GET' || c.method === 'DELETE' ? undefined : {};
      const res = await call(product.url, c.method, url, body, olga.token);
      // Past the guard: answered (or refused for its input / an unknown id) by the route itself.
      if (res.status === 404) expect(res.body?.message, `${c.method} ${c.path}`).not.toBe('Not found');
      else
        expect([200, 201, 202, 204, 400, 409, 422], `${c.method} ${c.path}: ${res.status}`).toContain(
          res.status,
        );
    }
  });
});
