import { z } from 'zod';
import { LIMITS } from './core/identity.js';
import { personName, ZUsername } from './identity.js';

// The claim name, paths and sentences live in ./core/ops.ts (zod-free: the browser imports them from there).
export * from './core/ops.js';
import { ARCHIVE_SOURCES_MAX } from './core/ops.js';

export const ZOperatorAuditEntry = z.strictObject({
  id: z.string(),
  service: z.enum(['identity', 'questions', 'payments', 'support']),
  operatorId: z.string(),
  operatorUsername: z.string(),
  action: z.string(),
  subject: z.string(),
  summary: z.string(),
  at: z.string(),
});

export const ZOperatorAuditPage = z.strictObject({ entries: z.array(ZOperatorAuditEntry) });

export const ZOperatorAuditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

const text = (max: number, label: string) => z.string().trim().max(max, `${label} must be at most ${max} characters`);

/** An archive profile as the console shows it. */
export const ZArchiveProfile = z.strictObject({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  bio: z.string(),
  avatarUrl: z.string(),
  archiveProfile: z.boolean(),
  /** The curator's note on where the material comes from. */
  sources: z.string(),
});
export const ZArchiveList = z.strictObject({ archives: z.array(ZArchiveProfile) });

export const ZCreateArchiveRequest = z.object({
  name: personName(LIMITS.name, `Name must be at most ${LIMITS.name} characters`),
  username: ZUsername.optional(),
  bio: text(LIMITS.bio, 'Bio').default(''),
  sources: text(ARCHIVE_SOURCES_MAX, 'Sources').default(''),
});
export const ZUpdateArchiveRequest = z.object({
  name: personName(LIMITS.name, `Name must be at most ${LIMITS.name} characters`).optional(),
  bio: text(LIMITS.bio, 'Bio').optional(),
  sources: text(ARCHIVE_SOURCES_MAX, 'Sources').optional(),
});
export const ZMarkArchiveRequest = z.object({ archive: z.boolean() });
export const ZArchiveParams = z.object({ id: z.uuid({ error: 'Not a profile id' }) });
