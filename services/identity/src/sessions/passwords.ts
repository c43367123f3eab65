import { hash, verify } from '@node-rs/argon2';

/** argon2id (enum value 2; the package's enum is a const enum that isolated modules cannot import). */
const ARGON2ID = 2;
/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
export const PASSWORD_HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, PASSWORD_HASH_OPTIONS);

// Verified when the e-mail is unknown, so a miss costs the same time as a wrong password.
let dummyHash: Promise<string> | null = null;

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) {
    dummyHash ??= hashPassword('not-a-real-password-for-timing');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
