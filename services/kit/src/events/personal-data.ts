import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DecryptWorker, type SealedJob } from './decrypt-worker.js';
import { personalDataView, type Executor, type PersonalDataTables } from '../db/schema.js';

/**
 * Crypto-shredding for event streams (ADR 0010). Personal fields of an event are sealed with a key that belongs to
 * one person (the "subject") before the event is stored; forgetting the person destroys the key, and from then on
 * every stored copy of those fields is unreadable ciphertext. Readers get a placeholder instead, so projections can
 * still be rebuilt (and the person's deletion event then removes what they produced).
 */
export interface EventCipher<DB = PersonalDataTables> {
  /** Returns the data to store for this event (personal fields sealed). Runs inside the append's transaction. */
  seal(trx: Kysely<DB>, event: { streamId: string; type: string; data: unknown }): Promise<unknown>;
  /** Returns readable data for stored events, in order (placeholders where the subject was forgotten). */
  open(executor: Kysely<DB>, events: { type: string; data: unknown }[], options?: OpenOptions): Promise<unknown[]>;
}

export interface OpenOptions {
  /**
   * The events' data are the caller's own (just parsed from the rows read, say): the placeholders and plaintexts are
   * written into them instead of copies (ADR 0041). Default false: the data stay as they were.
   */
  inPlace?: boolean;
}

export interface PersonalDataPolicy {
  /** Personal fields (top-level fields of `data`) per event type, all belonging to `subjectOf`'s person. */
  fields?: Record<string, readonly string[]>;
  /** Whose personal data an event holds (with `fields`). */
  subjectOf?: (event: { streamId: string; type: string; data: Record<string, unknown> }) => string;
  /**
   * Events that hold several people's data (an asker and a recipient): each group of fields — paths into `data` —
   * is sealed under its own person's key. A group whose subject is null (a guest, say) is stored as it is.
   */
  groups?: (event: { streamId: string; type: string; data: Record<string, unknown> }) => PersonalDataGroup[];
}

export interface PersonalDataGroup {
  subject: string | null;
  /** Paths into the event's data, e.g. `['asker', 'email']`. */
  paths: readonly (readonly string[])[];
}

interface Sealed {
  subject: string;
  /** Where the sealed values go back (absent: the fields of the policy for this event type, top level). */
  paths?: string[][];
  iv: string;
  tag: string;
  ct: string;
}

const SEALED = '__sealed';
const ALGORITHM = 'aes-256-gcm';

/** Placeholder for a forgotten person's field: unique per subject, so unique indexes survive a rebuild. */
export const erasedValue = (subject: string) => `erased-${subject}`;

const getAt = (data: Record<string, unknown>, path: readonly string[]): unknown =>
  path.reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), data);

/** Sets a value at a path of a (cloned) object; `undefined` deletes the leaf. */
function setAt(data: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node: Record<string, unknown> = data;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (!next || typeof next !== 'object') return;
    node = next as Record<string, unknown>;
  }
  const leaf = path[path.length - 1]!;
  if (value === undefined) delete node[leaf];
  else node[leaf] = value;
}

/** `setAt` on data whose top level is a copy: each nested object on the path is copied before it is written. */
function setAtCopying(data: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node: Record<string, unknown> = data;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (!next || typeof next !== 'object') return;
    const copy = (Array.isArray(next) ? [...(next as unknown[])] : { ...(next as Record<string, unknown>) }) as Record<string, unknown>;
    node[key] = copy;
    node = copy;
  }
  const leaf = path[path.length - 1]!;
  if (value === undefined) delete node[leaf];
  else node[leaf] = value;
}

export interface PersonalDataVaultOptions {
  /**
   * From how many sealed groups in one `open` the decryption runs on a worker thread (a rebuild's batch, ADR 0041);
   * fewer are opened inline. Default 256.
   */
  workerFrom?: number;
}

const WORKER_FROM = 256;

/** One sealed group's plaintext (the JSON of its values), on this thread. */
function decryptInline(job: SealedJob): string {
  const decipher = createDecipheriv(ALGORITHM, job.key, Buffer.from(job.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(job.tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(job.ct, 'base64')), decipher.final()]).toString('utf8');
}

/** Works in any service database that has the vault's table (`DB extends PersonalDataTables`). */
export class PersonalDataVault implements EventCipher {
  private decryptWorker: DecryptWorker | undefined;

  constructor(
    private readonly policy: PersonalDataPolicy,
    private readonly options: PersonalDataVaultOptions = {},
  ) {}

  private groupsOf(event: { streamId: string; type: string; data: Record<string, unknown> }): { subject: string; paths: string[][] }[] {
    const groups = this.policy.groups
      ? this.policy.groups(event)
      : [{ subject: this.policy.subjectOf?.(event) ?? null, paths: (this.policy.fields?.[event.type] ?? []).map((f) => [f]) }];
    return groups
      .filter((g): g is PersonalDataGroup & { subject: string } => !!g.subject && g.paths.length > 0)
      .map((g) => ({ subject: g.subject, paths: g.paths.map((p) => [...p]) }));
  }

  async seal<DB extends PersonalDataTables>(trx: Executor<DB>, event: { streamId: string; type: string; data: unknown }): Promise<unknown> {
    if (typeof event.data !== 'object' || event.data === null) return event.data;
    const groups = this.groupsOf({ streamId: event.streamId, type: event.type, data: event.data as Record<string, unknown> });
    if (groups.length === 0) return event.data;
    const data = structuredClone(event.data) as Record<string, unknown>;
    const sealed: Sealed[] = [];
    for (const group of groups) {
      const key = await this.keyFor(trx, group.subject);
      if (!key) throw new Error(`personal data of ${group.subject} was forgotten; nothing new may be recorded for them`);
      const values = group.paths.map((path) => getAt(data, path));
      for (const path of group.paths) setAt(data, path, undefined);
      const iv = randomBytes(12);
      const cipher = createCipheriv(ALGORITHM, key, iv);
      const ct = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()]);
      sealed.push({ subject: group.subject, paths: group.paths, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), ct: ct.toString('base64') });
    }
    return { ...data, [SEALED]: sealed };
  }

  async open<DB extends PersonalDataTables>(
    executor: Executor<DB>,
    events: { type: string; data: unknown }[],
    options: OpenOptions = {},
  ): Promise<unknown[]> {
    const subjects = new Set<string>();
    for (const e of events) for (const sealed of sealedOf(e.data)) subjects.add(sealed.subject);
    const keys = new Map<string, Buffer>();
    if (subjects.size > 0) {
      const rows = await personalDataView(executor)
        .selectFrom('personal_data_keys')
        .select(['subject', 'key'])
        .where('subject', 'in', [...subjects])
        .execute();
      for (const row of rows) if (row.key) keys.set(row.subject, Buffer.from(row.key));
    }
    // The sealed groups with a key, in order: decrypted inline, or on the worker thread for a large batch.
    const jobs: SealedJob[] = [];
    for (const e of events) {
      for (const sealed of sealedOf(e.data)) {
        const key = keys.get(sealed.subject);
        if (key) jobs.push({ key, iv: sealed.iv, tag: sealed.tag, ct: sealed.ct });
      }
    }
    const plain = jobs.length >= (this.options.workerFrom ?? WORKER_FROM) ? await this.worker().decrypt(jobs) : jobs.map(decryptInline);
    let next = 0;
    return events.map((e) => {
      const groups = sealedOf(e.data);
      if (groups.length === 0) return e.data;
      // In place, or a copy of the top level and of each object on a path written below (the caller's data stays as
      // it was): far cheaper than a deep clone of the whole event, once per event in a rebuild (ADR 0026).
      const data = options.inPlace ? (e.data as Record<string, unknown>) : { ...(e.data as Record<string, unknown>) };
      delete data[SEALED];
      const set = options.inPlace ? setAt : setAtCopying;
      for (const sealed of groups) {
        // Older records sealed top-level fields only, without paths.
        const paths = sealed.paths ?? (this.policy.fields?.[e.type] ?? []).map((f) => [f]);
        if (!keys.has(sealed.subject)) {
          for (const path of paths) set(data, path, erasedValue(sealed.subject));
          continue;
        }
        const values = JSON.parse(plain[next++]!) as unknown;
        if (sealed.paths) (values as unknown[]).forEach((value, i) => set(data, paths[i]!, value));
        else Object.assign(data, values as Record<string, unknown>);
      }
      return data;
    });
  }

  private worker(): DecryptWorker {
    return (this.decryptWorker ??= new DecryptWorker());
  }

  /** Destroys the subject's key: every sealed field of theirs becomes unreadable, everywhere it was copied. */
  async forget<DB extends PersonalDataTables>(trx: Executor<DB>, subject: string): Promise<void> {
    await personalDataView(trx)
      .insertInto('personal_data_keys')
      .values({ subject, key: null, forgotten_at: new Date() })
      .onConflict((oc) => oc.column('subject').doUpdateSet({ key: null, forgotten_at: new Date() }))
      .execute();
  }

  /**
   * The subject's key, made on first use — in one statement (ADR 0042): the insert's returned key, or else the row
   * that was there (a forgotten subject's row has no key, and `do nothing` keeps it keyless). The only case the one
   * statement cannot answer: another transaction inserted the subject's row and committed while this insert waited
   * for it, after this statement's snapshot was taken; a second read then sees it.
   */
  async keyFor<DB extends PersonalDataTables>(executor: Executor<DB>, subject: string): Promise<Buffer | null> {
    const trx = personalDataView(executor);
    const row =
      (await trx
        .with('made', (db) =>
          db
            .insertInto('personal_data_keys')
            .values({ subject, key: randomBytes(32), forgotten_at: null })
            .onConflict((oc) => oc.column('subject').doNothing())
            .returning('key'),
        )
        .selectFrom('made')
        .select('key')
        .unionAll((db) => db.selectFrom('personal_data_keys').select('key').where('subject', '=', subject))
        .limit(1)
        .executeTakeFirst()) ??
      (await trx.selectFrom('personal_data_keys').select('key').where('subject', '=', subject).executeTakeFirst());
    return row?.key ? Buffer.from(row.key) : null;
  }
}

function sealedOf(data: unknown): Sealed[] {
  if (typeof data !== 'object' || data === null || !(SEALED in data)) return [];
  const sealed = (data as Record<string, Sealed | Sealed[]>)[SEALED];
  return Array.isArray(sealed) ? sealed : sealed ? [sealed] : [];
}
