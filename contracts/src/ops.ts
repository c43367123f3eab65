import { z } from 'zod';

// The claim name, paths and sentences live in ./core/ops.ts (zod-free: the browser imports them from there).
export * from './core/ops.js';

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
