import { randomUUID } from 'node:crypto';
import { sleep } from '../util.js';
import { guestAsk, type Account, type Cast } from './cast.js';
import { BffClient, emptyStats, summary, type HttpStats, type ReliableResult, type Reply } from './client.js';

export type AskKind = 'free-guest' | 'free-member' | 'tipped-guest' | 'tipped-member';
/** What happens after the question is accepted: the owner answers, the asker withdraws, both at once, or nothing. */
export type FollowUp = 'answer' | 'withdraw' | 'race' | 'none';
/** What the client knows about an action: it got a 2xx, it got a refusal, or it cannot tell (errors, then a refusal). */
export type Knowledge = 'yes' | 'no' | 'unknown';

export interface AskRecord {
  /** In the question text: `[tag/phase/n]`, so the checks find every row this ask produced. */
  marker: string;
  kind: AskKind;
  followUp: FollowUp;
  owner: Account;
  asker: Account | null;
  outcome: 'accepted' | 'rejected' | 'gave-up';
  /** Why it was rejected or given up, for the report. */
  detail: string;
  questionId: string | null;
  answered: Knowledge;
  withdrawn: Knowledge;
}

export interface LoadPlan {
  /** Asks started per second (open loop: a slow server does not slow the clients down). */
  opsPerSecond: number;
  /** At most this many asks (each with its follow-up) in flight. */
  maxInFlight: number;
  /** The phase keeps asking until at least this many asks were started, even after its fault is over. */
  minOps: number;
  /** How long one logical call (an ask, a payment, an answer) keeps retrying. */
  callDeadlineMs: number;
}

const isTipped = (kind: AskKind) => kind === 'tipped-guest' || kind === 'tipped-member';
const isMember = (kind: AskKind) => kind === 'free-member' || kind === 'tipped-member';

/** A small seeded generator (mulberry32), so a run's mix of asks can be repeated with CHAOS_SEED. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One phase's clients: asks (free and tipped, as guests and members) started at a steady rate by many concurrent
 * clients, each followed by what the owner or asker does next. Every call retries like the web app will (same body,
 * same Idempotency-Key), and the outcome of each is recorded for the checks.
 */
export class PhaseLoad {
  readonly records: AskRecord[] = [];
  readonly stats: HttpStats = emptyStats();
  private readonly client: BffClient;
  private readonly inFlight = new Set<Promise<void>>();
  private issuing: Promise<void> | null = null;
  private stopRequested = false;
  private started = 0;

  constructor(
    base: string,
    private readonly cast: Cast,
    private readonly phase: string,
    private readonly tag: string,
    private readonly plan: LoadPlan,
    private readonly random: () => number,
    private readonly signal?: AbortSignal,
  ) {
    this.client = new BffClient(base, this.stats, signal);
  }

  get accepted(): number {
    return this.records.filter((r) => r.outcome === 'accepted').length;
  }

  start(): void {
    this.issuing ??= this.issue();
  }

  /** Stops starting asks (once `minOps` have started) and waits for every ask and follow-up to settle. */
  async finish(): Promise<void> {
    this.stopRequested = true;
    await this.issuing;
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async issue(): Promise<void> {
    const interval = 1_000 / this.plan.opsPerSecond;
    let next = Date.now();
    while (!(this.stopRequested && this.started >= this.plan.minOps) && !this.signal?.aborted) {
      while (this.inFlight.size >= this.plan.maxInFlight) await Promise.race(this.inFlight);
      const record = this.newRecord();
      const task: Promise<void> = this.run(record)
        .catch((err: Error) => {
          record.detail = `harness error: ${err.message}`;
        })
        .finally(() => this.inFlight.delete(task));
      this.inFlight.add(task);
      // Pacing, not waiting for a condition: the clients ask at a steady rate whatever the server does.
      next += interval;
      await sleep(Math.max(0, next - Date.now()));
    }
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  private newRecord(): AskRecord {
    const n = ++this.started;
    const roll = this.random();
    const kind: AskKind =
      roll < 0.35
        ? 'free-guest'
        : roll < 0.55
          ? 'free-member'
          : roll < 0.8
            ? 'tipped-guest'
            : 'tipped-member';
    const next = this.random();
    const followUp: FollowUp = isMember(kind)
      ? next < 0.4
        ? 'answer'
        : next < 0.55
          ? 'withdraw'
          : next < 0.75 && isTipped(kind)
            ? 'race'
            : 'none'
      : next < 0.55
        ? 'answer'
        : 'none';
    const record: AskRecord = {
      marker: `[${this.tag}/${this.phase}/${n}]`,
      kind,
      followUp,
      owner: this.pick(this.cast.owners),
      asker: isMember(kind) ? this.pick(this.cast.askers) : null,
      outcome: 'gave-up',
      detail: '',
      questionId: null,
      answered: 'no',
      withdrawn: 'no',
    };
    this.records.push(record);
    return record;
  }

  private async run(record: AskRecord): Promise<void> {
    const deadline = Date.now() + this.plan.callDeadlineMs;
    const accepted = isTipped(record.kind)
      ? await this.askWithTip(record, deadline)
      : await this.askFree(record, deadline);
    if (!accepted || record.followUp === 'none') return;
    // The owner or asker comes back a moment later, so follow-ups land while the fault is on, too.
    await sleep(this.random() * 1_500);
    const followUpDeadline = Date.now() + this.plan.callDeadlineMs;
    if (record.followUp === 'answer') await this.answer(record, followUpDeadline);
    else if (record.followUp === 'withdraw') await this.withdraw(record, followUpDeadline);
    else await Promise.all([this.answer(record, followUpDeadline), this.withdraw(record, followUpDeadline)]);
  }

  private questionText(record: AskRecord): string {
    return `Chaos ${record.marker} does this survive?`;
  }

  private async askFree(record: AskRecord, deadline: number): Promise<boolean> {
    const owner = record.owner;
    const json = record.asker
      ? {
          question: this.questionText(record),
          detail: '',
          tip: 0,
          toUserId: owner.id,
          toUsername: owner.username,
        }
      : guestAsk(owner, this.questionText(record), `guest.${this.tag}.${record.marker.replace(/\W+/g, '-').replace(/^-|-$/g, '')}@chaos.example`);
    const res = await this.client.reliably('POST', '/api/questions', {
      json,
      token: record.asker?.token,
      idempotencyKey: randomUUID(),
      deadline,
    });
    if (!settle(record, res, 201, 'ask')) return false;
    record.questionId = (res.ok && res.reply.body?._id) || null;
    return true;
  }

  /** Checkout through the test-mode hosted page, then "Pay": the card is held and the question appears. */
  private async askWithTip(record: AskRecord, deadline: number): Promise<boolean> {
    const owner = record.owner;
    const questionData = record.asker
      ? { question: this.questionText(record), toUserId: owner.id, toUsername: owner.username }
      : {
          question: this.questionText(record),
          toUserId: owner.id,
          toUsername: owner.username,
          askedName: 'Gil Guest',
          askedEmail: `gil.${this.tag}.${record.marker.replace(/\W+/g, '-').replace(/^-|-$/g, '')}@chaos.example`,
          agreedToTerms: true,
          tip: 5,
        };
    const checkout = await this.client.reliably('POST', '/api/checkout/create-checkout-session', {
      json: { donationAmount: 5, userId: record.asker?.id ?? 'guest', questionData },
      token: record.asker?.token,
      idempotencyKey: randomUUID(),
      deadline,
    });
    if (!settle(record, checkout, 200, 'checkout')) return false;
    const { url, questionId } = (checkout as { reply: Reply }).reply.body as {
      url: string;
      questionId: string;
    };
    record.questionId = questionId;
    const pay = await this.client.reliably('POST', `${url}/pay`, { form: '', deadline });
    return settle(record, pay, 303, 'pay');
  }

  private async answer(record: AskRecord, deadline: number): Promise<void> {
    const id = record.questionId!;
    // A tipped question is visible (answerable) only once the card's authorization has travelled to questions: 404 until
    // then. In a race, once the asker's withdrawal has succeeded the 404 is final: stop (it used to be retried until the
    // 45 s deadline, which was most of a short run's phase time); the outcome stays 'unknown', as after the deadline.
    const res = await this.client.reliably('PUT', `/api/questions/${id}/answer`, {
      json: { answer: `Answer to ${record.marker}` },
      token: record.owner.token,
      idempotencyKey: randomUUID(),
      deadline,
      retryOn: (r) => r.status >= 500 || r.status === 429 || (r.status === 404 && record.withdrawn !== 'yes'),
    });
    record.answered = knowledge(res);
    if (record.answered !== 'yes' || !isTipped(record.kind)) return;
    // The web app settles right after answering; the capture also follows from the AnswerPosted event.
    await this.client.reliably('POST', `/api/payments/process/${id}/finalize-payment`, {
      token: record.owner.token,
      deadline,
    });
  }

  private async withdraw(record: AskRecord, deadline: number): Promise<void> {
    const res = await this.client.reliably('DELETE', `/api/questions/${record.questionId!}`, {
      token: record.asker!.token,
      idempotencyKey: randomUUID(),
      deadline,
      retryOn: (r) => r.status >= 500 || r.status === 429 || r.status === 404,
    });
    record.withdrawn = knowledge(res);
  }
}

/** Records the outcome of one step of an ask; true when it got the expected status. */
function settle(record: AskRecord, res: ReliableResult, expected: number, step: string): boolean {
  if (res.ok && res.reply.status === expected) {
    record.outcome = 'accepted';
    return true;
  }
  record.outcome = res.ok ? 'rejected' : 'gave-up';
  record.detail = `${step}: ${res.ok ? `${res.reply.status} ${summary(res.reply.body)}` : res.last}`;
  return false;
}

/** A 2xx is a yes; a refusal on the first attempt is a no; a refusal after failed attempts, or no answer, is unknown. */
function knowledge(res: ReliableResult): Knowledge {
  if (!res.ok) return 'unknown';
  if (res.reply.status >= 200 && res.reply.status < 300) return 'yes';
  return res.attempts === 1 ? 'no' : 'unknown';
}
