import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASKING_LIMITS, ASKING_MESSAGES } from '@ques/contracts';
import { infraGate, natsTestUrl, postgresServerUrl } from '@ques/kit/testing';
import { INTERNAL_HEADERS, registerUser, startHarness, type Harness } from '../test/harness.js';

const natsUrl = await natsTestUrl();
const run = infraGate(!!(await postgresServerUrl()) && !!natsUrl, 'Postgres and NATS JetStream');

type User = Awaited<ReturnType<typeof registerUser>>;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const DEVICE_A = 'device-aaaaaaaaaaaaaaaaaaaaaaaa';
const DEVICE_B = 'device-bbbbbbbbbbbbbbbbbbbbbbbb';

describe.runIf(run)('owner control over asking: pause, cap, word filters, blocks (issue 16)', () => {
  let h: Harness;
  let ada: User;
  let bob: User;
  let sam: User;

  const api = async (
    method: Method,
    url: string,
    body?: unknown,
    opts: { token?: string; device?: string; ip?: string } = {},
  ) => {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.device) headers['x-ques-device'] = opts.device;
    if (opts.ip) headers['x-forwarded-for'] = opts.ip;
    const res = await h.a.app.inject({ method, url, payload: body as never, headers, remoteAddress: opts.ip });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };
  const guestAsk = (
    to: User,
    question: string,
    opts: { email?: string; device?: string; ip?: string; detail?: string } = {},
  ) =>
    api(
      'POST',
      '/api/questions',
      {
        question,
        detail: opts.detail ?? '',
        tip: 0,
        toUserId: to.id,
        toUsername: to.username,
        askedName: 'Grace Guest',
        askedEmail: opts.email ?? 'grace@example.com',
        agreedToTerms: true,
      },
      { device: opts.device, ip: opts.ip },
    );
  const settings = (owner: User, body: Record<string, unknown>) =>
    api('PUT', '/api/asking/settings', body, { token: owner.token });
  const screen = (to: User, over: Record<string, unknown> = {}) =>
    h.a.app.inject({
      method: 'POST',
      url: '/internal/questions/screen',
      headers: INTERNAL_HEADERS,
      payload: {
        toUserId: to.id,
        question: 'A tipped question?',
        detail: '',
        askerUserId: null,
        askedEmail: 'tia@example.com',
        device: null,
        ...over,
      },
    });
  /** Nothing stored: no question row, no event, no origin for this title. */
  const storedWithTitle = async (title: string) => {
    const rows = await h.database.db.selectFrom('questions').select('id').where('question', '=', title).execute();
    return rows.length;
  };
  const eventCount = async () =>
    Number(
      (await h.database.db.selectFrom('events').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n,
    );

  beforeAll(async () => {
    h = await startHarness(natsUrl!);
    ada = await registerUser(h, { username: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' });
    bob = await registerUser(h, { username: 'bob', name: 'Bob Owner', email: 'bob@example.com' });
    sam = await registerUser(h, { username: 'sam', name: 'Sam Signed', email: 'sam@example.com', emailVerified: true });
  });
  afterAll(async () => h?.close());

  it('pause: the public status says so, asks and checkout screening are refused, a past date resumes by itself', async () => {
    expect((await api('GET', '/api/asking/settings', undefined, { token: ada.token })).body).toEqual({
      pausedUntil: null,
      pauseNote: '',
      pendingCap: null,
      blockedWords: [],
      builtInFilter: false,
      nudges: true,
    });
    const until = new Date(h.now().getTime() + 3 * 86_400_000).toISOString();
    const saved = await settings(ada, { pausedUntil: until, pauseNote: 'On holiday' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ pausedUntil: until, pauseNote: 'On holiday' });
    expect((await api('GET', '/api/asking/status/ada')).body).toEqual({
      accepting: false,
      reason: 'paused',
      pausedUntil: until,
      note: 'On holiday',
    });

    const events = await eventCount();
    const refused = await guestAsk(ada, 'Paused question?');
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(ASKING_MESSAGES.paused('Ada Lovelace', until));
    expect(refused.body.message).toMatch(/^Ada Lovelace is not taking questions until \w+ \d+, \d{4}\.$/);
    expect(await storedWithTitle('Paused question?')).toBe(0);
    expect(await eventCount()).toBe(events);
    const checkout = await screen(ada);
    expect(checkout.statusCode).toBe(422);
    expect(checkout.json().message).toBe(ASKING_MESSAGES.paused('Ada Lovelace', until));

    // Another owner is not paused.
    expect((await guestAsk(bob, 'Bob is open?')).status).toBe(201);

    // The date passes: taking questions again without anyone doing anything.
    h.advance(3 * 86_400_000 + 1000);
    expect((await api('GET', '/api/asking/status/ada')).body).toMatchObject({ accepting: true, reason: null });
    expect((await api('GET', '/api/asking/settings', undefined, { token: ada.token })).body.pausedUntil).toBeNull();
    expect((await guestAsk(ada, 'After the pause?')).status).toBe(201);

    // Resuming is immediate.
    await settings(ada, { pausedUntil: new Date(h.now().getTime() + 86_400_000).toISOString() });
    expect((await guestAsk(ada, 'Paused again?')).status).toBe(422);
    await settings(ada, { pausedUntil: null });
    expect((await guestAsk(ada, 'Resumed?')).status).toBe(201);
  });

  it('cap: at the cap of open questions the page says so and asks and checkout are refused', async () => {
    const open = Number(
      (
        await h.database.db
          .selectFrom('questions')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('to_user_id', '=', ada.id)
          .where('lifecycle', '=', 'pending')
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(open).toBeGreaterThan(0);
    await settings(ada, { pendingCap: open + 1 });
    expect((await guestAsk(ada, 'Fills the cap?')).status).toBe(201);
    expect((await api('GET', '/api/asking/status/ada')).body).toEqual({
      accepting: false,
      reason: 'cap',
      pausedUntil: null,
      note: '',
    });
    const refused = await guestAsk(ada, 'Over the cap?');
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(ASKING_MESSAGES.atCap('Ada Lovelace'));
    expect(await storedWithTitle('Over the cap?')).toBe(0);
    expect((await screen(ada)).statusCode).toBe(422);
    await settings(ada, { pendingCap: null });
    expect((await api('GET', '/api/asking/status/ada')).body.accepting).toBe(true);
  });

  it("word filters: refused with the neutral message on title or detail, nothing stored; another owner's list never applies", async () => {
    expect((await settings(ada, { blockedWords: ['badword', '  bad   phrase ', 'BADWORD'] })).body.blockedWords).toEqual([
      'badword',
      'bad phrase',
    ]);
    const events = await eventCount();
    for (const title of ['You b4dw0rd?', 'B.A.D.W.O.R.D', 'So bäädword?', 'baaadword!']) {
      const refused = await guestAsk(ada, title);
      expect(refused.status, title).toBe(422);
      expect(refused.body.message).toBe("This question can't be sent to Ada Lovelace.");
      expect(await storedWithTitle(title)).toBe(0);
    }
    expect((await guestAsk(ada, 'Clean title', { detail: 'but a bad-phrase here' })).status).toBe(422);
    expect((await screen(ada, { question: 'b4dw0rd at checkout' })).statusCode).toBe(422);
    expect(await eventCount()).toBe(events);
    expect((await guestAsk(ada, 'What is your favourite class?')).status).toBe(201);
    // Bob has no filter: Ada's list is not his.
    expect((await guestAsk(bob, 'You b4dw0rd?')).status).toBe(201);
    expect((await api('GET', '/api/asking/settings', undefined, { token: bob.token })).body.blockedWords).toEqual([]);

    // The built-in list, off by default, the owner switches on.
    expect((await guestAsk(ada, 'You sh1t')).status).toBe(201);
    await settings(ada, { builtInFilter: true });
    expect((await guestAsk(ada, 'You sh1t again')).status).toBe(422);
    await settings(ada, { builtInFilter: false, blockedWords: [] });
  });

  it('bad input: lists are bounded with clear errors', async () => {
    const tooMany = await settings(ada, { blockedWords: Array.from({ length: ASKING_LIMITS.filterEntries + 1 }, (_, i) => `w${i}`) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe(ASKING_MESSAGES.tooManyFilters);
    const tooLong = await settings(ada, { blockedWords: ['x'.repeat(ASKING_LIMITS.filterLength + 1)] });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe(ASKING_MESSAGES.filterTooLong);
    const empty = await settings(ada, { blockedWords: ['...'] });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe(ASKING_MESSAGES.filterEmpty);
    expect((await settings(ada, { pendingCap: 0 })).body.message).toBe(ASKING_MESSAGES.capInvalid);
    expect((await settings(ada, { pausedUntil: 'someday' })).body.message).toBe(ASKING_MESSAGES.pausedUntilInvalid);
    expect((await settings(ada, { pauseNote: 'x'.repeat(ASKING_LIMITS.note + 1) })).status).toBe(400);
    const full = await settings(ada, {
      blockedWords: Array.from({ length: ASKING_LIMITS.filterEntries }, (_, i) => `w${i}${'x'.repeat(90)}`),
    });
    expect(full.status).toBe(200);
    expect(full.body.blockedWords).toHaveLength(ASKING_LIMITS.filterEntries);
    await settings(ada, { blockedWords: [] });
    expect((await api('PUT', '/api/asking/settings', { nudges: false })).status).toBe(401);
  });

  it('blocks: a blocked device is refused again after a new IP and e-mail; the owner sees and lifts the block', async () => {
    const first = await guestAsk(ada, 'From device A?', { device: DEVICE_A, email: 'first@example.com', ip: '10.0.0.1' });
    expect(first.status).toBe(201);
    // Only the recipient may block; the stored origin is a hash, never the token.
    expect((await api('POST', `/api/questions/${first.body.id}/block`, undefined, { token: bob.token })).status).toBe(404);
    const origin = await h.database.db.selectFrom('question_origins').selectAll().where('question_id', '=', first.body.id).executeTakeFirstOrThrow();
    expect(origin.device_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(origin)).not.toContain(DEVICE_A);

    const blocked = await api('POST', `/api/questions/${first.body.id}/block`, undefined, { token: ada.token });
    expect(blocked.status).toBe(201);
    expect(blocked.body).toMatchObject({ label: 'Grace Guest', byAccount: false, byEmail: true, byDevice: true });
    // Blocking again answers with the same block.
    expect((await api('POST', `/api/questions/${first.body.id}/block`, undefined, { token: ada.token })).body.id).toBe(blocked.body.id);

    const events = await eventCount();
    const again = await guestAsk(ada, 'New IP, new e-mail?', { device: DEVICE_A, email: 'second@example.org', ip: '192.168.7.7' });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe("This question can't be sent to Ada Lovelace.");
    expect(await storedWithTitle('New IP, new e-mail?')).toBe(0);
    expect(await eventCount()).toBe(events);
    // At checkout too (payments screens before it creates the session).
    expect((await screen(ada, { device: DEVICE_A, askedEmail: 'third@example.net' })).statusCode).toBe(422);
    // By e-mail, from another device.
    expect((await guestAsk(ada, 'Same e-mail?', { device: DEVICE_B, email: 'first@example.com' })).status).toBe(422);
    // Another device and e-mail are not blocked; Ada's block does not apply to Bob.
    expect((await guestAsk(ada, 'Someone else?', { device: DEVICE_B, email: 'other@example.com' })).status).toBe(201);
    expect((await guestAsk(bob, 'To Bob from device A?', { device: DEVICE_A, email: 'first@example.com' })).status).toBe(201);

    // Only Ada sees and lifts her blocks.
    expect((await api('GET', '/api/asking/blocks', undefined, { token: bob.token })).body).toEqual([]);
    const list = await api('GET', '/api/asking/blocks', undefined, { token: ada.token });
    expect(list.body).toEqual([blocked.body]);
    expect((await api('DELETE', `/api/asking/blocks/${blocked.body.id}`, undefined, { token: bob.token })).status).toBe(404);
    expect((await api('DELETE', `/api/asking/blocks/${blocked.body.id}`, undefined, { token: ada.token })).body).toEqual({
      message: 'Block lifted',
    });
    expect((await api('GET', '/api/asking/blocks', undefined, { token: ada.token })).body).toEqual([]);
    expect((await guestAsk(ada, 'Unblocked?', { device: DEVICE_A, email: 'second@example.org' })).status).toBe(201);
  });

  it('blocks a signed-in asker by account', async () => {
    const asked = await api(
      'POST',
      '/api/questions',
      { question: 'Signed in?', detail: '', tip: 0, toUserId: bob.id },
      { token: sam.token },
    );
    expect(asked.status).toBe(201);
    expect((await api('POST', `/api/questions/${asked.body.id}/block`, undefined, { token: sam.token })).status).toBe(403);
    const block = await api('POST', `/api/questions/${asked.body.id}/block`, undefined, { token: bob.token });
    expect(block.body).toMatchObject({ byAccount: true, byEmail: true });
    const refused = await api('POST', '/api/questions', { question: 'Again?', detail: '', tip: 0, toUserId: bob.id }, { token: sam.token });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe("This question can't be sent to Bob Owner.");
    expect((await screen(bob, { askerUserId: sam.id, askedEmail: null })).statusCode).toBe(422);

    // An account whose e-mail identity has not verified is blocked by account only: its address blocks nobody else.
    const fromAda = await api('POST', '/api/questions', { question: 'Unverified?', detail: '', tip: 0, toUserId: bob.id }, { token: ada.token });
    const adaBlock = await api('POST', `/api/questions/${fromAda.body.id}/block`, undefined, { token: bob.token });
    expect(adaBlock.body).toMatchObject({ byAccount: true, byEmail: false });
    expect((await guestAsk(bob, 'A guest typing that address?', { email: 'ada@example.com' })).status).toBe(201);
  });

  it('limits guest asks per owner per device; a screened checkout remembers its origin only when it passes', async () => {
    const device = `device-${randomUUID().replace(/-/g, '')}`;
    const limit = ASKING_LIMITS.guestAsksPerDevicePerDay;
    const owner = await registerUser(h, { username: 'lim', name: 'Lim Owner', email: 'lim@example.com' });
    for (let i = 0; i < limit; i += 1) expect((await guestAsk(owner, `Guest ${i}?`, { device })).status).toBe(201);
    const over = await guestAsk(owner, 'One too many?', { device, email: 'new@example.com' });
    expect(over.status).toBe(429);
    expect(over.body.message).toBe(ASKING_MESSAGES.guestLimit('Lim Owner'));
    // Another owner, or another device, is not limited by it.
    expect((await guestAsk(bob, 'Bob too?', { device })).status).toBe(201);

    const questionId = randomUUID();
    await settings(owner, { blockedWords: ['nope'] });
    expect((await screen(owner, { question: 'nope', device: DEVICE_B, questionId })).statusCode).toBe(422);
    expect(await h.database.db.selectFrom('question_origins').select('question_id').where('question_id', '=', questionId).execute()).toEqual([]);
    expect((await screen(owner, { device: DEVICE_B, questionId })).json()).toEqual({ ok: true });
    expect(await h.database.db.selectFrom('question_origins').select('question_id').where('question_id', '=', questionId).execute()).toHaveLength(1);
  });
  it('guest limits that hold (issue 33 finding 2): device, normalised e-mail and network buckets; no device is a bucket too', async () => {
    const limit = ASKING_LIMITS.guestAsksPerDevicePerDay;
    const fresh = () => `device-${randomUUID().replace(/-/g, '')}`;
    const inbox = async (owner: User) =>
      Number((await h.database.db.selectFrom('questions').select((eb) => eb.fn.countAll().as('n')).where('to_user_id', '=', owner.id).executeTakeFirstOrThrow()).n);

    // The spammer of the issue: 20 asks from one address, no device header, then 10 plus-address variants and 3 fresh
    // device tokens — at most the limit reaches the inbox, and the rest hear the limit in the asker's words.
    const target = await registerUser(h, { username: 'spam-target', name: 'Spam Target', email: 'spam-target@example.com' });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const opts =
        i < 7
          ? { ip: '203.0.113.7', email: 'spammer@example.com' }
          : i < 17
            ? { ip: '203.0.113.7', email: `spammer+${i}@example.com` }
            : { ip: '203.0.113.7', email: `spammer+d${i}@example.com`, device: fresh() };
      statuses.push((await guestAsk(target, `Spam ${i}?`, opts)).status);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - limit);
    expect(await inbox(target)).toBe(limit);

    // Each bucket holds on its own. No device (or a malformed one) from ever-new networks and addresses: one bucket.
    const noDevice = await registerUser(h, { username: 'no-device', name: 'Nod Owner', email: 'nod@example.com' });
    for (let i = 0; i < limit + 2; i += 1)
      await guestAsk(noDevice, `Nod ${i}?`, { ip: `198.51.${i}.1`, email: `n${i}@example.org`, device: i % 2 ? 'bad token' : undefined });
    expect(await inbox(noDevice)).toBe(limit);
    // One address in many spellings (case, +tags, Gmail dots and googlemail.com), new device and network each time.
    const byEmail = await registerUser(h, { username: 'by-email', name: 'Bye Owner', email: 'bye@example.com' });
    const spellings = ['Jo.Doe@gmail.com', 'jodoe+a@gmail.com', 'JODOE@googlemail.com', 'j.o.d.o.e+b@gmail.com', 'jodoe@gmail.com', 'jo.doe+c@googlemail.com', 'jodoe+d@gmail.com'];
    for (const [i, email] of spellings.entries()) await guestAsk(byEmail, `Bye ${i}?`, { ip: `192.0.${i}.9`, email, device: fresh() });
    expect(await inbox(byEmail)).toBe(limit);
    // One /24 (and one IPv6 /64), new device and address each time.
    const byNet = await registerUser(h, { username: 'by-net', name: 'Net Owner', email: 'net@example.com' });
    for (let i = 0; i < limit + 2; i += 1) await guestAsk(byNet, `Net ${i}?`, { ip: `203.0.114.${i + 1}`, email: `net${i}@example.org`, device: fresh() });
    expect(await inbox(byNet)).toBe(limit);
    const byNet6 = await registerUser(h, { username: 'by-net6', name: 'Six Owner', email: 'six@example.com' });
    for (let i = 0; i < limit + 2; i += 1) await guestAsk(byNet6, `Six ${i}?`, { ip: `2001:db8:5:6::${i + 1}`, email: `six${i}@example.org`, device: fresh() });
    expect(await inbox(byNet6)).toBe(limit);
  });

  it('an e-mail block matches the normalised address (issue 33 finding 2): blockme+1@ is blocked by blockme@', async () => {
    const owner = await registerUser(h, { username: 'blocker', name: 'Block Owner', email: 'blocker@example.com' });
    const asked = await guestAsk(owner, 'First?', { email: 'BlockMe@example.com', device: DEVICE_A, ip: '198.18.0.1' });
    expect(asked.status).toBe(201);
    expect((await api('POST', `/api/questions/${asked.body.id}/block`, undefined, { token: owner.token })).body).toMatchObject({ byEmail: true });
    const again = await guestAsk(owner, 'Again?', { email: 'blockme+1@example.com', device: DEVICE_B, ip: '198.18.1.1' });
    expect([again.status, again.body.message]).toEqual([422, "This question can't be sent to Block Owner."]);
  });
});
