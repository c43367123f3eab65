import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

/**
 * Crypto-shredding for event streams (ADR 0010). Personal fields of an event are sealed with a key that belongs to
 * one person (the "subject") before the event is stored; forgetting the person destroys the key, and from then on
 * every stored copy of those fields is unreadable ciphertext. Readers get a placeholder instead, so projections can
 * still be rebuilt (and the person's deletion event then removes what they produced).
 */
export interface EventCipher {
  /** Returns the data to store for this event (personal fields sealed). Runs inside the append's transaction. */
  seal(trx: Kysely<any>, event: { streamId: string; type: string; data: unknown }): Promise<unknown>;
  /** Returns readable data for stored events, in order (placeholders where the subject was forgotten). */
  open(executor: Kysely<any>, events: { type: string; data: unknown }[]): Promise<unknown[]>;
}

export interface PersonalDataPolicy {
  /** Personal fields (top-level string fields of `data`) per event type; other types are stored as they are. */
  fields: Record<string, readonly string[]>;
  /** Whose personal data an event holds. */
  subjectOf: (event: { streamId: string; type: string; data: Record<string, unknown> }) => string;
}

interface Sealed {
  subject: string;
  iv: string;
  tag: string;
  ct: string;
}

const SEALED = '__sealed';
const ALGORITHM = 'aes-256-gcm';

/** Placeholder for a forgotten person's field: unique per subject, so unique indexes survive a rebuild. */
export const erasedValue = (subject: string) => `erased-${subject}`;

export class PersonalDataVault implements EventCipher {
  constructor(private readonly policy: PersonalDataPolicy) {}

  async seal(trx: Kysely<any>, event: { streamId: string; type: string; data: unknown }): Promise<unknown> {
    const fields = this.policy.fields[event.type];
    if (!fields || fields.length === 0 || typeof event.data !== 'object' || event.data === null) return event.data;
    const data = event.data as Record<string, unknown>;
    const subject = this.policy.subjectOf({ streamId: event.streamId, type: event.type, data });
    const key = await this.keyFor(trx, subject, true);
    if (!key) throw new Error(`personal data of ${subject} was forgotten; nothing new may be recorded for them`);
    const secret: Record<string, unknown> = {};
    const rest: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(data)) (fields.includes(name) ? secret : rest)[name] = value;
    const iv = randomBytes(12);
    const cipher = createCipheriv(ALGORITHM, key, iv);
    const ct = Buffer.concat([cipher.update(JSON.stringify(secret), 'utf8'), cipher.final()]);
    const sealed: Sealed = { subject, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), ct: ct.toString('base64') };
    return { ...rest, [SEALED]: sealed };
  }

  async open(executor: Kysely<any>, events: { type: string; data: unknown }[]): Promise<unknown[]> {
    const subjects = new Set<string>();
    for (const e of events) {
      const sealed = sealedOf(e.data);
      if (sealed) subjects.add(sealed.subject);
    }
    const keys = new Map<string, Buffer>();
    if (subjects.size > 0) {
      const rows = await executor
        .selectFrom('personal_data_keys')
        .select(['subject', 'key'])
        .where('subject', 'in', [...subjects])
        .execute();
      for (const row of rows) if (row.key) keys.set(row.subject as string, Buffer.from(row.key as Uint8Array));
    }
    return events.map((e) => {
      const sealed = sealedOf(e.data);
      if (!sealed) return e.data;
      const { [SEALED]: _omit, ...rest } = e.data as Record<string, unknown>;
      const key = keys.get(sealed.subject);
      if (!key) {
        const erased: Record<string, unknown> = {};
        for (const field of this.policy.fields[e.type] ?? []) erased[field] = erasedValue(sealed.subject);
        return { ...rest, ...erased };
      }
      const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(sealed.iv, 'base64'));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      const plain = Buffer.concat([decipher.update(Buffer.from(sealed.ct, 'base64')), decipher.final()]).toString('utf8');
      return { ...rest, ...(JSON.parse(plain) as Record<string, unknown>) };
    });
  }

  /** Destroys the subject's key: every sealed field of theirs becomes unreadable, everywhere it was copied. */
  async forget(trx: Kysely<any>, subject: string): Promise<void> {
    await trx
      .insertInto('personal_data_keys')
      .values({ subject, key: null, forgotten_at: new Date() })
      .onConflict((oc) => oc.column('subject').doUpdateSet({ key: null, forgotten_at: new Date() }))
      .execute();
  }

  private async keyFor(trx: Kysely<any>, subject: string, create: boolean): Promise<Buffer | null> {
    if (create) {
      await trx
        .insertInto('personal_data_keys')
        .values({ subject, key: randomBytes(32), forgotten_at: null })
        .onConflict((oc) => oc.column('subject').doNothing())
        .execute();
    }
    const row = await trx.selectFrom('personal_data_keys').select('key').where('subject', '=', subject).executeTakeFirst();
    return row?.key ? Buffer.from(row.key as Uint8Array) : null;
  }
}

function sealedOf(data: unknown): Sealed | null {
  if (typeof data !== 'object' || data === null || !(SEALED in data)) return null;
  return (data as Record<string, Sealed>)[SEALED] ?? null;
}

/** The vault's table; services that use a vault add this to their migrations. */
export async function createPersonalDataKeysTable(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('personal_data_keys')
    .ifNotExists()
    .addColumn('subject', 'text', (c) => c.primaryKey())
    // null once forgotten: the row stays so nothing new is sealed for a deleted person by mistake.
    .addColumn('key', 'bytea')
    .addColumn('forgotten_at', 'timestamptz')
    .execute();
}
