import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_MESSAGES as C, OPS_MESSAGES } from '@ques/contracts';
import {
  connectPostgres,
  createLogger,
  InProcessEventBus,
  type Database,
  type MailMessage,
  type Mailer,
  type RunningService,
} from '@ques/kit';
import { createTestDatabase, infraGate, postgresServerUrl, type TestDatabase } from '@ques/kit/testing';
import type { IdentityDB } from './db/schema.js';
import { cliGranter } from './operators/operators.js';
import type { IdentityParts } from './service.js';
import { runTestIdentity } from './test/identity.js';

const log = createLogger('claims-test', 'silent');
const run = infraGate(!!(await postgresServerUrl()), 'Postgres');
const PASSWORD = 'a long enough password';

/**
 * Claiming an archive profile (issue 18, ADR 0034) on real Postgres: the refusals, a rejection the claimant sees, and
 * an approval that turns the archive into an ordinary profile the claimant signs in to — once, however often it is
 * pressed.
 */
describe.runIf(run)('profile claims (issue 18): submit, reject, approve', () => {
  let testDb: TestDatabase;
  let database: Database<IdentityDB>;
  let identity: RunningService<IdentityDB, any, IdentityParts>;
  let op: string;
  /** Two more operators: an approval takes two, neither the archive's creator (Opal) nor the claimant (ADR 0054). */
  let pip: string;
  let quinn: string;
  /** Every mail identity sends (verification links, claim outcomes). */
  const sent: MailMessage[] = [];
  const mailer: Mailer = {
    transport: 'file',
    send: async (mail) => {
      sent.push(mail);
      return { messageId: mail.messageId ?? String(sent.length) };
    },
    close: () => undefined,
  };

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = connectPostgres<IdentityDB>({ connectionString: testDb.url, schema: 'identity' });
    identity = await runTestIdentity(database, new InProcessEventBus({ log }), log, { mailer });
    const opal = await signup('Opal Operator', 'opal@example.com');
    await identity.parts.operators.grant(opal.user.id, cliGranter('test'));
    op = await login('opal@example.com');
    for (const [name, email] of [['Pip Operator', 'pip@example.com'], ['Quinn Operator', 'quinn@example.com']] as const) {
      const other = await signup(name, email);
      await identity.parts.operators.grant(other.user.id, cliGranter('test'));
    }
    pip = await login('pip@example.com');
    quinn = await login('quinn@example.com');
  });
  afterAll(async () => {
    await identity?.stop();
    await database?.close();
    await testDb?.drop();
  });

  const inject = (method: 'GET' | 'POST', url: string, payload?: unknown, token?: string, key?: string) =>
    identity.app.inject({
      method,
      url,
      payload: payload as object,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(key ? { 'idempotency-key': key } : {}),
      },
    });
  async function signup(name: string, email: string) {
    const res = await identity.app.inject({
      method: 'POST',
      url: '/api/users',
      payload: { name, email, password: PASSWORD },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ user: { id: string; username: string }; accessToken: string }>();
  }
  async function login(email: string) {
    const res = await identity.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email, password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().accessToken as string;
  }
  const createArchive = async (name: string) => {
    const res = await inject(
      'POST',
      '/api/ops/archives',
      { name, bio: `${name}, from public interviews`, sources: 'Interviews' },
      op,
    );
    expect(res.statusCode).toBe(201);
    return res.json<{ id: string; username: string }>();
  };
  const events = (type: string) =>
    database.db.selectFrom('events').select(['stream_id', 'type']).where('type', '=', type).execute();

  it('refuses a guest, a profile that is not an archive, an unknown profile and a claim without its evidence', async () => {
    const archive = await createArchive('Grace Hopper');
    const owner = await signup('Olive Owner', 'olive@example.com');
    const claimant = await signup('Cleo Claimant', 'cleo@example.com');
    const body = { username: archive.username, method: 'email', evidence: 'grace@navy.example' };

    expect((await inject('POST', '/api/claims', body)).statusCode).toBe(401);
    const notArchive = await inject(
      'POST',
      '/api/claims',
      { ...body, username: owner.user.username },
      claimant.accessToken,
    );
    expect(notArchive.statusCode).toBe(409);
    expect(notArchive.json().message).toBe(C.notArchive);
    const unknown = await inject(
      'POST',
      '/api/claims',
      { ...body, username: 'nobody-here' },
      claimant.accessToken,
    );
    expect([unknown.statusCode, unknown.json().message]).toEqual([404, C.noSuchProfile]);
    const noEmail = await inject(
      'POST',
      '/api/claims',
      { ...body, evidence: 'not an address' },
      claimant.accessToken,
    );
    expect([noEmail.statusCode, noEmail.json().message]).toEqual([400, C.emailRequired]);
    const noLink = await inject(
      'POST',
      '/api/claims',
      { ...body, method: 'link', evidence: 'my site' },
      claimant.accessToken,
    );
    expect([noLink.statusCode, noLink.json().message]).toEqual([400, C.linkRequired]);
    const noNote = await inject(
      'POST',
      '/api/claims',
      { ...body, method: 'note', evidence: '' },
      claimant.accessToken,
    );
    expect([noNote.statusCode, noNote.json().message]).toEqual([400, C.noteRequired]);
    expect(await events('ProfileClaimSubmitted')).toEqual([]);
  });

  it('records one pending claim per profile; a retried submit is the same claim; only operators list and decide', async () => {
    const archive = await createArchive('Rosalind Franklin');
    const first = await signup('Rosa Claimant', 'rosa@example.com');
    const second = await signup('Ray Impostor', 'ray@example.com');
    const body = {
      username: archive.username,
      method: 'link',
      evidence: 'https://rosalind.example/about',
      note: 'My lab page says so.',
    };
    const sent = await inject('POST', '/api/claims', body, first.accessToken, 'claim-key-1');
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({
      status: 'pending',
      method: 'link',
      evidence: body.evidence,
      profile: { id: archive.id, username: archive.username },
    });
    const retried = await inject('POST', '/api/claims', body, first.accessToken, 'claim-key-1');
    expect(retried.json().id).toBe(sent.json().id);
    expect(await events('ProfileClaimSubmitted')).toHaveLength(1);

    const again = await inject('POST', '/api/claims', body, second.accessToken);
    expect([again.statusCode, again.json().message]).toEqual([409, C.pending]);

    expect(
      (await inject('GET', '/api/ops/claims?status=pending', undefined, second.accessToken)).statusCode,
    ).toBe(404);
    expect((await inject('GET', '/api/ops/claims')).statusCode).toBe(404);
    expect(
      (await inject('POST', `/api/ops/claims/${sent.json().id}/approve`, undefined, second.accessToken))
        .statusCode,
    ).toBe(404);
    expect(
      (await inject('POST', `/api/ops/claims/${sent.json().id}/reject`, { reason: 'no' }, second.accessToken))
        .statusCode,
    ).toBe(404);
    const listed = await inject('GET', '/api/ops/claims?status=pending', undefined, op);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().claims.find((c: { id: string }) => c.id === sent.json().id)).toMatchObject({
      claimant: { id: first.user.id, email: 'rosa@example.com' },
      note: 'My lab page says so.',
    });
  });

  it('a rejection needs a reason, is idempotent, and the claimant sees why; they may claim again', async () => {
    const archive = await createArchive('Ada Lovelace');
    const claimant = await signup('Augusta Claimant', 'augusta@example.com');
    const sent = (
      await inject(
        'POST',
        '/api/claims',
        { username: archive.username, method: 'note', note: 'I am Ada.' },
        claimant.accessToken,
      )
    ).json();
    const id = sent.id as string;
    expect((await inject('POST', `/api/ops/claims/${id}/reject`, { reason: '  ' }, op)).json().message).toBe(
      C.reasonRequired,
    );
    const rejected = await inject(
      'POST',
      `/api/ops/claims/${id}/reject`,
      { reason: 'Ada Lovelace died in 1852.' },
      op,
    );
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toMatchObject({
      status: 'rejected',
      reason: 'Ada Lovelace died in 1852.',
      decidedBy: 'opal-operator',
    });
    expect(
      (await inject('POST', `/api/ops/claims/${id}/reject`, { reason: 'Again' }, op)).json().reason,
    ).toBe('Ada Lovelace died in 1852.');
    const approve = await inject('POST', `/api/ops/claims/${id}/approve`, undefined, op);
    expect([approve.statusCode, approve.json().message]).toEqual([409, C.alreadyRejected]);
    expect(
      (await events('ProfileClaimRejected')).filter((e) => e.stream_id === `profile-claim-${id}`),
    ).toHaveLength(1);

    const mine = await inject('GET', '/api/claims/mine', undefined, claimant.accessToken);
    expect(mine.json().claims).toEqual([
      expect.objectContaining({ id, status: 'rejected', reason: 'Ada Lovelace died in 1852.' }),
    ]);
    expect(
      (await identity.app.inject({ method: 'GET', url: `/api/users/public/${archive.username}` })).json()
        .archiveProfile,
    ).toBe(true);
    // The profile is free to claim again.
    expect(
      (
        await inject(
          'POST',
          '/api/claims',
          { username: archive.username, method: 'note', note: 'Really.' },
          claimant.accessToken,
        )
      ).statusCode,
    ).toBe(201);
  });

  it('approval: the archive keeps its id and becomes the claimant’s ordinary profile; their own account is closed; once', async () => {
    const archive = await createArchive('Marie Curie');
    const claimant = await signup('Marie Claimant', 'marie@example.com');
    const sent = (
      await inject(
        'POST',
        '/api/claims',
        { username: archive.username, method: 'email', evidence: 'marie@sorbonne.example' },
        claimant.accessToken,
      )
    ).json();
    const id = sent.id as string;

    const firstApproval = await inject('POST', `/api/ops/claims/${id}/approve`, undefined, pip);
    expect(firstApproval.json()).toMatchObject({ status: 'pending', approvals: 1, firstApprovedBy: 'pip-operator' });
    const approved = await inject('POST', `/api/ops/claims/${id}/approve`, undefined, quinn, 'approve-key');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      status: 'approved',
      decidedBy: 'quinn-operator',
      approvals: 2,
      profile: { id: archive.id },
    });
    // Pressed again (another key, or the same): nothing more happens.
    expect((await inject('POST', `/api/ops/claims/${id}/approve`, undefined, quinn)).json().status).toBe(
      'approved',
    );
    expect(
      (await inject('POST', `/api/ops/claims/${id}/approve`, undefined, quinn, 'approve-key')).json().status,
    ).toBe('approved');
    expect(
      (await events('ProfileClaimApproved')).filter((e) => e.stream_id === `profile-claim-${id}`),
    ).toHaveLength(1);
    expect((await events('ProfileClaimed')).filter((e) => e.stream_id === `user-${archive.id}`)).toHaveLength(
      1,
    );
    expect(
      (await events('UserDeleted')).filter((e) => e.stream_id === `user-${claimant.user.id}`),
    ).toHaveLength(1);
    const reject = await inject('POST', `/api/ops/claims/${id}/reject`, { reason: 'Too late' }, pip);
    expect([reject.statusCode, reject.json().message]).toEqual([409, C.alreadyApproved]);

    // The claimant's e-mail and password now open the archive's account: same id, no longer an archive.
    const res = await identity.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: 'marie@example.com', password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      id: archive.id,
      username: archive.username,
      name: 'Marie Curie',
      archiveProfile: false,
      email: 'marie@example.com',
    });
    const publicProfile = (
      await identity.app.inject({ method: 'GET', url: `/api/users/public/${archive.username}` })
    ).json();
    expect(publicProfile).toMatchObject({
      id: archive.id,
      archiveProfile: false,
      bio: 'Marie Curie, from public interviews',
    });
    // Their own new account is closed: its page is gone and its session ended.
    expect(
      (await identity.app.inject({ method: 'GET', url: `/api/users/public/${claimant.user.username}` }))
        .statusCode,
    ).toBe(404);
    expect((await inject('GET', '/api/users/profile', undefined, claimant.accessToken)).statusCode).toBe(401);
    // The owner sees the approved claim as theirs.
    const mine = await inject('GET', '/api/claims/mine', undefined, res.json().accessToken);
    expect(mine.json().claims).toEqual([expect.objectContaining({ id, status: 'approved' })]);

    // Other services learn it as the profile's snapshot (archive flag off, the claimant's address); claims stay private.
    const outbox = await database.db.selectFrom('outbox').select(['subject', 'envelope']).execute();
    const snapshots = outbox.filter(
      (o) => o.subject === 'ques.identity.ProfileUpdated' && JSON.stringify(o.envelope).includes(archive.id),
    );
    expect(JSON.stringify(snapshots.at(-1)!.envelope)).toContain('"archiveProfile":false');
    expect(outbox.filter((o) => o.subject.includes('ProfileClaim'))).toEqual([]);
    // The operator's decision is in the audit.
    const audit = (await inject('GET', '/api/ops/audit/identity', undefined, op)).json().entries;
    const acts = (action: string) =>
      audit.filter((e: { action: string; subject: string }) => e.action === action && e.subject === `claim:${id}`);
    expect(acts('claim.approve.first')).toEqual([expect.objectContaining({ operatorUsername: 'pip-operator' })]);
    expect(acts('claim.approve')).toEqual([expect.objectContaining({ operatorUsername: 'quinn-operator' })]);
  });

  it('four eyes (issue 33 finding 1): a real account cannot be marked; approvals take two operators, never the claimant or the creator', async () => {
    // A real account (signed up, signed in) is refused; an archive's own mark/unmark still works.
    const real = await signup('Rita Real', 'rita@example.com');
    const mark = await inject('POST', `/api/ops/archives/${real.user.id}/mark`, { archive: true }, op);
    expect([mark.statusCode, mark.json().message]).toEqual([409, OPS_MESSAGES.realAccount]);
    expect((await identity.app.inject({ method: 'GET', url: `/api/users/public/${real.user.username}` })).json().archiveProfile).toBe(false);
    const archive = await createArchive('Hedy Lamarr');
    expect((await inject('POST', `/api/ops/archives/${archive.id}/mark`, { archive: false }, op)).statusCode).toBe(200);
    expect((await inject('POST', `/api/ops/archives/${archive.id}/mark`, { archive: true }, op)).statusCode).toBe(200);

    // An operator's own claim: never theirs to approve, at either step.
    const pipClaim = await inject('POST', '/api/claims', { username: archive.username, method: 'note', note: 'Me.' }, pip);
    expect(pipClaim.statusCode, pipClaim.body).toBe(201);
    const own = await inject('POST', `/api/ops/claims/${pipClaim.json().id}/approve`, undefined, pip);
    expect([own.statusCode, own.json().message]).toEqual([403, C.ownClaim]);
    // The archive's creator cannot approve it either.
    const byCreator = await inject('POST', `/api/ops/claims/${pipClaim.json().id}/approve`, undefined, op);
    expect([byCreator.statusCode, byCreator.json().message]).toEqual([403, C.creatorApproves]);
    // One approval leaves it pending; the same operator again is refused; the account is untouched.
    const once = await inject('POST', `/api/ops/claims/${pipClaim.json().id}/approve`, undefined, quinn);
    expect(once.json()).toMatchObject({ status: 'pending', approvals: 1, firstApprovedBy: 'quinn-operator' });
    const twice = await inject('POST', `/api/ops/claims/${pipClaim.json().id}/approve`, undefined, quinn);
    expect([twice.statusCode, twice.json().message]).toEqual([409, C.alreadyApprovedByYou]);
    expect((await events('ProfileClaimed')).filter((e) => e.stream_id === `user-${archive.id}`)).toEqual([]);
    const audit = (await inject('GET', '/api/ops/audit/identity', undefined, op)).json().entries;
    expect(audit.filter((e: { action: string; subject: string }) => e.subject === `claim:${pipClaim.json().id}`)).toEqual([
      expect.objectContaining({ action: 'claim.approve.first', operatorUsername: 'quinn-operator' }),
    ]);
  });

  it('mails the outcome to a verified address only: the reason of a rejection, the page of an approval', async () => {
    const mailsTo = (to: string, subject: RegExp) =>
      sent.filter((m) => m.to === to && subject.test(m.subject));
    const verify = async (email: string) => {
      await expect.poll(() => mailsTo(email, /Verify/).length, { timeout: 10_000 }).toBe(1);
      const token = /token=([\w-]+)/.exec(mailsTo(email, /Verify/)[0]!.text)![1]!;
      // The mail is sent inside the job's transaction: the token counts once that commits.
      await expect
        .poll(
          async () =>
            (
              await identity.app.inject({
                method: 'POST',
                url: '/api/users/verify-email',
                payload: { token },
              })
            ).statusCode,
          {
            timeout: 10_000,
          },
        )
        .toBe(200);
    };
    const a = await createArchive('Katherine Johnson');
    const b = await createArchive('Dorothy Vaughan');
    const verified = await signup('Kathy Claimant', 'kathy@example.com');
    await verify('kathy@example.com');
    const unverified = await signup('Dot Claimant', 'dot@example.com');

    const first = (
      await inject(
        'POST',
        '/api/claims',
        { username: a.username, method: 'note', note: 'Me.' },
        verified.accessToken,
      )
    ).json();
    await inject(
      'POST',
      `/api/ops/claims/${first.id}/reject`,
      { reason: 'Please send a link from NASA.' },
      op,
    );
    await expect.poll(() => mailsTo('kathy@example.com', /claim/).length, { timeout: 10_000 }).toBe(1);
    expect(mailsTo('kathy@example.com', /claim/)[0]!.text).toContain('Why: Please send a link from NASA.');

    const second = (
      await inject(
        'POST',
        '/api/claims',
        { username: b.username, method: 'note', note: 'Me.' },
        unverified.accessToken,
      )
    ).json();
    await inject('POST', `/api/ops/claims/${second.id}/reject`, { reason: 'No.' }, op);
    const third = (
      await inject(
        'POST',
        '/api/claims',
        { username: a.username, method: 'link', evidence: 'https://nasa.example/kj' },
        verified.accessToken,
      )
    ).json();
    await inject('POST', `/api/ops/claims/${third.id}/approve`, undefined, pip);
    await inject('POST', `/api/ops/claims/${third.id}/approve`, undefined, quinn);
    await expect.poll(() => mailsTo('kathy@example.com', /was approved/).length, { timeout: 10_000 }).toBe(1);
    expect(mailsTo('kathy@example.com', /was approved/)[0]!.text).toContain(`/ask/${a.username}`);
    // The unverified claimant's rejection was never mailed (their address is unproven, ADR 0021).
    expect(mailsTo('dot@example.com', /claim/)).toEqual([]);
  });

  it('an account with a claim waiting cannot send another', async () => {
    const a = await createArchive('Emmy Noether');
    const b = await createArchive('Lise Meitner');
    const claimant = await signup('Busy Claimant', 'busy@example.com');
    expect(
      (
        await inject(
          'POST',
          '/api/claims',
          { username: a.username, method: 'note', note: 'Me.' },
          claimant.accessToken,
        )
      ).statusCode,
    ).toBe(201);
    const second = await inject(
      'POST',
      '/api/claims',
      { username: b.username, method: 'note', note: 'Me too.' },
      claimant.accessToken,
    );
    expect([second.statusCode, second.json().message]).toEqual([409, C.yourPending]);
  });
});
