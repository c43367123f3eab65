/**
 * Latency of the event pipeline across real processes (distributed mode): the chaos suite's topology — identity,
 * questions, payments, support and the BFF each as its own process on a fresh Postgres database, with a private
 * nats-server on a free port — and tipped questions asked through the BFF as the web app does (test-mode checkout,
 * "Pay", then the owner answers and settles). The figures come from the event stores' own timestamps (one clock, the
 * machine's), not from polling:
 * - card authorised → question held: payments' TipAuthorized → questions' QuestionAsked for the same question;
 * - answer → tip captured: questions' AnswerPosted → payments' TipCaptured.
 * BENCH_LATENCY_QUESTIONS (default 200) tipped questions, one started every BENCH_LATENCY_SPACING_MS (default 200 ms,
 * open loop, at most MAX_IN_FLIGHT at once): spaced, so the figures are each question's path and not a queue of
 * questions sent together (ADR 0046). With 200 samples p99 is the second-largest figure, not the largest.
 * BENCH_ASK_SECONDS=0 leaves out the ask → inbox row.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { BffClient, createCast, guestAsk, Topology, type Account } from '@ques/chaos';
import { askCosts, COST_ASK_RATE, readLoad, type AskCosts } from './ask-costs.js';
import { figures, type LatencyFigures } from './figures.js';
import { reportHops } from './hops.js';

const QUESTIONS = Number(process.env.BENCH_LATENCY_QUESTIONS ?? 200);
const SPACING_MS = Number(process.env.BENCH_LATENCY_SPACING_MS ?? 200);
const MAX_IN_FLIGHT = 6;
/** Ask → inbox: asks per second (open loop), inbox reads per second in the background, seconds measured. */
const ASK_RATE = Number(process.env.BENCH_ASK_RATE ?? 100);
const READ_RATE = Number(process.env.BENCH_READ_RATE ?? 1_000);
const ASK_SECONDS = Number(process.env.BENCH_ASK_SECONDS ?? 10);
/** Asks of the first seconds warm the path up and are left out of the figures. */
const ASK_WARMUP_S = 2;
/** How long after the last ask its answers (and the read load's figures) may take before the row fails. */
const ASK_SETTLE_MS = 60_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export type { LatencyFigures };

export type { AskCosts };

export interface AskToInbox extends LatencyFigures {
  /** Null without /proc. */
  costs: AskCosts | null;
  /** Asks per second sent (open loop) and inbox reads per second the background load achieved. */
  askRate: number;
  readRate: number;
  failedAsks: number;
  readErrors: number;
}

export interface LatencyResult {
  /** Null when left out (BENCH_ASK_SECONDS=0). */
  askToInbox: AskToInbox | null;
  authorisedToHeld: LatencyFigures;
  answerToCaptured: LatencyFigures;
}

/**
 * Ask → visible in the owner's inbox, as the owner sees it: free guest questions posted through the BFF at ASK_RATE
 * a second (open loop: one every 1/ASK_RATE s whatever the answers take) while another process reads the owner's
 * inbox READ_RATE times a second; each ask is timed from sending the POST to the first inbox read (issued as soon as
 * the POST is answered, repeated until it shows) that lists the new question.
 */
async function askToInbox(client: BffClient, owner: Account): Promise<Omit<AskToInbox, 'costs'>> {
  const inbox = `${client.base}/api/questions?role=receiver&limit=50`;
  const reads = readLoad(inbox, owner.token, READ_RATE, ASK_SECONDS + 1);
  const samples: number[] = [];
  let failedAsks = 0;
  let firstFailure: string | null = null;
  /** The POST alone (the rest is the inbox read): where the time goes. */
  const postMs: number[] = [];
  const one = async (n: number, counted: boolean) => {
    const started = performance.now();
    try {
      const asked = await client.send(
        'POST',
        '/api/questions',
        {
          json: guestAsk(owner, `Bench ask ${n}: is the inbox quick?`, `ask.${n}@bench.example`),
          idempotencyKey: randomUUID(),
        },
        10_000,
      );
      if (asked.status !== 201)
        throw new Error(`ask answered ${asked.status} ${JSON.stringify(asked.body).slice(0, 200)}`);
      const id = (asked.body as { id: string }).id;
      if (counted) postMs.push(performance.now() - started);
      // Newest first: the question is on the first page as soon as it is visible. A few tries at most (a saturated
      // machine must not be flooded further by the measurement itself).
      for (let attempt = 0; attempt < 20; attempt++) {
        const seen = await client.send(
          'GET',
          '/api/questions?role=receiver&limit=50',
          { token: owner.token },
          10_000,
        );
        if (seen.status === 200 && (seen.body as { id: string }[]).some((q) => q.id === id)) {
          if (counted) samples.push(performance.now() - started);
          return;
        }
      }
      throw new Error('never in the inbox');
    } catch (err) {
      failedAsks += 1;
      firstFailure ??= (err as Error).message;
    }
  };
  const total = ASK_RATE * ASK_SECONDS;
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / ASK_RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(one(n, n >= ASK_RATE * ASK_WARMUP_S));
  }
  const sentIn = (performance.now() - started) / 1000;
  // Bounded, so a saturated (or stuck) topology fails the row instead of hanging the bench: an ask still unanswered
  // a minute after the last one was sent counts as failed, and so does a read load that never reports.
  let unanswered = inFlight.length;
  for (const ask of inFlight) void ask.finally(() => (unanswered -= 1));
  const settledInTime = await Promise.race([
    Promise.all(inFlight).then(() => true),
    sleep(ASK_SETTLE_MS).then(() => false),
  ]);
  if (!settledInTime) {
    failedAsks += unanswered;
    firstFailure ??= `${unanswered} asks unanswered ${ASK_SETTLE_MS / 1000} s after the last was sent`;
  }
  const read = await Promise.race([
    reads,
    sleep(ASK_SETTLE_MS).then(() => {
      throw new Error(`the read load did not report within ${ASK_SETTLE_MS / 1000} s of its end`);
    }),
  ]);
  const post = figures(postMs);
  console.log(
    `      ask → inbox: the POST alone p50 ${post.p50.toFixed(1)} ms, p99 ${post.p99.toFixed(1)} ms`,
  );
  if (firstFailure) console.error(`ask → inbox: ${failedAsks} asks failed, the first with: ${firstFailure}`);
  return {
    ...figures(samples),
    askRate: total / sentIn,
    readRate: read.perSec,
    failedAsks,
    readErrors: read.non2xx + read.errors,
  };
}

async function tippedQuestion(client: BffClient, owner: Account, n: number): Promise<string> {
  const deadline = Date.now() + 60_000;
  const checkout = await client.reliably('POST', '/api/checkout/create-checkout-session', {
    json: {
      donationAmount: 5,
      userId: 'guest',
      questionData: {
        question: `Bench question ${n}: how fast is the pipeline?`,
        toUserId: owner.id,
        toUsername: owner.username,
        askedName: 'Bea Bench',
        askedEmail: `bea.${n}@bench.example`,
        agreedToTerms: true,
        tip: 5,
      },
    },
    idempotencyKey: randomUUID(),
    deadline,
  });
  if (!checkout.ok || checkout.reply.status !== 200)
    throw new Error(`checkout failed: ${checkout.ok ? checkout.reply.status : checkout.last}`);
  const { url, questionId } = checkout.reply.body as { url: string; questionId: string };
  const pay = await client.reliably('POST', `${url}/pay`, { form: '', deadline });
  if (!pay.ok || pay.reply.status !== 303)
    throw new Error(`pay failed: ${pay.ok ? pay.reply.status : pay.last}`);
  // The owner answers once the question is in their inbox (404 until the authorisation has reached questions). Not
  // by retrying the answer itself: its Idempotency-Key would replay the first 404.
  const seen = await client.reliably('GET', `/api/questions/${questionId}`, {
    token: owner.token,
    deadline,
    retryOn: (r) => r.status >= 500 || r.status === 429 || r.status === 404,
  });
  if (!seen.ok || seen.reply.status !== 200)
    throw new Error(`question never visible: ${seen.ok ? seen.reply.status : seen.last}`);
  const answer = await client.reliably('PUT', `/api/questions/${questionId}/answer`, {
    json: { answer: `Answer ${n}` },
    token: owner.token,
    idempotencyKey: randomUUID(),
    deadline,
  });
  if (!answer.ok || answer.reply.status >= 300)
    throw new Error(`answer failed: ${answer.ok ? answer.reply.status : answer.last}`);
  await client.reliably('POST', `/api/payments/process/${questionId}/finalize-payment`, {
    token: owner.token,
    deadline,
  });
  return questionId;
}

export async function runLatency(progress: (line: string) => void = () => {}): Promise<LatencyResult | null> {
  const natsBin = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';
  if (!existsSync(natsBin)) return null;
  // BENCH_READ_CACHE=off: the services without their read cache (ADR 0040), for a figure to compare with.
  const serviceEnv: Record<string, string> = process.env.BENCH_READ_CACHE
    ? { READ_CACHE: process.env.BENCH_READ_CACHE }
    : {};
  const topology = await Topology.start({
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
    progress,
    readyTimeoutMs: 120_000,
    serviceEnv,
  });
  let failed = true;
  try {
    const client = new BffClient(topology.bffUrl);
    const cast = await createCast(client, `bench${Date.now().toString(36)}`, { owners: 1, askers: 0 });
    const owner = cast.owners[0]!;
    progress(`tipped questions: ${QUESTIONS}, one every ${SPACING_MS} ms (at most ${MAX_IN_FLIGHT} at once)`);
    const ids: string[] = [];
    const inFlight = new Set<Promise<void>>();
    const begun = performance.now();
    for (let n = 0; n < QUESTIONS; n++) {
      const wait = begun + n * SPACING_MS - performance.now();
      if (wait > 0) await sleep(wait);
      while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
      const one: Promise<void> = tippedQuestion(client, owner, n).then((id) => {
        ids.push(id);
        inFlight.delete(one);
      });
      inFlight.add(one);
    }
    await Promise.all(inFlight);
    const db = new pg.Client({ connectionString: topology.database!.url });
    await db.connect();
    try {
      const captured = async () =>
        Number(
          (
            await db.query(
              `SELECT count(*)::int AS n FROM payments.events WHERE type = 'TipCaptured' AND data->>'questionId' = ANY($1)`,
              [ids],
            )
          ).rows[0].n,
        );
      const until = Date.now() + 60_000;
      while ((await captured()) < ids.length && Date.now() < until)
        await new Promise((r) => setTimeout(r, 100));
      const between = async (fromSql: string, toSql: string) =>
        (
          await db.query(
            `SELECT extract(epoch FROM (t.recorded_at - f.recorded_at)) * 1000 AS ms
             FROM (${fromSql}) f JOIN (${toSql}) t USING (question_id) WHERE f.question_id = ANY($1)`,
            [ids],
          )
        ).rows.map((r: { ms: string }) => Number(r.ms));
      const authorisedToHeld = await between(
        `SELECT data->>'questionId' AS question_id, min(recorded_at) AS recorded_at FROM payments.events WHERE type = 'TipAuthorized' GROUP BY 1`,
        `SELECT data->>'questionId' AS question_id, min(recorded_at) AS recorded_at FROM questions.events WHERE type = 'QuestionAsked' GROUP BY 1`,
      );
      const answerToCaptured = await between(
        `SELECT data->>'questionId' AS question_id, min(recorded_at) AS recorded_at FROM questions.events WHERE type = 'AnswerPosted' GROUP BY 1`,
        `SELECT data->>'questionId' AS question_id, min(recorded_at) AS recorded_at FROM payments.events WHERE type = 'TipCaptured' GROUP BY 1`,
      );
      await reportHops(db, ids, progress);
      failed = false;
      if (ASK_SECONDS <= 0)
        return {
          askToInbox: null,
          authorisedToHeld: figures(authorisedToHeld),
          answerToCaptured: figures(answerToCaptured),
        };
      // Last, as it may saturate a loaded machine: ask → inbox under its read load.
      progress(
        `ask → inbox: ${ASK_RATE} asks/s with ${READ_RATE} inbox reads/s for ${ASK_SECONDS} s, read cache ${serviceEnv.READ_CACHE ?? 'on'}`,
      );
      const costs = await askCosts(client, owner, topology, { askRate: ASK_RATE, readRate: READ_RATE });
      if (costs) {
        const list = (perMs: Record<string, number | null>) =>
          Object.entries(perMs)
            .map(([name, ms]) => `${name} ${ms === null ? '?' : ms.toFixed(2)}`)
            .join(', ');
        progress(
          `CPU per guest ask ${costs.askTotalMs.toFixed(1)} ms (${list(costs.perAskMs)}), at ${COST_ASK_RATE} asks/s alone`,
        );
        progress(
          `CPU per inbox read ${costs.readTotalMs.toFixed(2)} ms (${list(costs.perReadMs)}), at ${READ_RATE} reads/s alone`,
        );
        progress(
          `→ ${ASK_RATE} asks/s with ${READ_RATE} reads/s need ${costs.coresAtBar.toFixed(1)} cores at these costs; this machine has ${costs.cores}`,
        );
      }
      const inboxFigures = { ...(await askToInbox(client, owner)), costs };
      return {
        askToInbox: inboxFigures,
        authorisedToHeld: figures(authorisedToHeld),
        answerToCaptured: figures(answerToCaptured),
      };
    } finally {
      await db.end();
    }
  } finally {
    if (failed) console.error(`latency: the topology's logs are kept in ${topology.logDir}`);
    await topology.stop({
      keepRunDir: failed || process.env.BENCH_LOG_LEVEL !== undefined,
      keepDatabase: failed && process.env.BENCH_KEEP_DATABASE === '1',
    });
  }
}
