import { createHash } from 'node:crypto';

/** A hash of what identifies an asker, meaningful only for this owner (see asking.ts on privacy). */
export function ownerHash(ownerId: string, kind: 'email' | 'device' | 'network', value: string): string {
  return createHash('sha256').update(`ques-asking\n${ownerId}\n${kind}\n${value}`).digest('hex');
}
