import { z } from 'zod';

/*
 * The data export (issue 15, docs/adr/0030): what a person downloads of everything that is theirs. Identity runs the
 * export (it owns the account, its address and its deletion) and reads the other contexts' parts over their internal
 * calls (api/exports.ts); each part is that context's own view of the person, never another person's private data.
 */

export const EXPORT_STATUSES = ['requested', 'running', 'ready', 'failed', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
/** How long a ready archive can be downloaded. */
export const EXPORT_TTL_HOURS = 24;

export const EXPORT_MESSAGES = {
  notFound: 'Export not found',
  expired: 'This export has expired. Please request a new one.',
  notReady: 'This export is not ready yet',
} as const;

/** `GET/POST /api/users/exports`, `GET /api/users/exports/:id`: the state of one export. */
export const ZDataExport = z.strictObject({
  id: z.string(),
  status: z.enum(EXPORT_STATUSES),
  requestedAt: z.string(),
  readyAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  sizeBytes: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type DataExport = z.infer<typeof ZDataExport>;
export const ZLatestExport = z.strictObject({ export: ZDataExport.nullable() });
export type LatestExport = z.infer<typeof ZLatestExport>;
export const ZExportIdParams = z.object({ id: z.string() });
export const ZExportUserParams = z.object({ userId: z.string() });

/** Questions' part: questions received, asked and curated, as the person sees them. */
export const ZExportQuestion = z.strictObject({
  id: z.string(),
  role: z.enum(['received', 'asked', 'curated']),
  question: z.string(),
  detail: z.string(),
  answer: z.string().nullable(),
  tags: z.array(z.string()),
  /** pending, answered, withdrawn, expired (the answer window closed). */
  status: z.string(),
  shownOnProfile: z.boolean(),
  private: z.boolean(),
  /** The asker's name as the question shows it ("Deleted user" once that account is gone). */
  askedBy: z.string(),
  /** The owner's username. */
  askedTo: z.string(),
  source: z.string(),
  tipCents: z.number().int(),
  currency: z.string().nullable(),
  tipStatus: z.string(),
  createdAt: z.string(),
  answeredAt: z.string().nullable(),
  answerDeadline: z.string().nullable(),
});
export type ExportQuestion = z.infer<typeof ZExportQuestion>;
export const ZQuestionsExport = z.strictObject({ questions: z.array(ZExportQuestion) });
export type QuestionsExport = z.infer<typeof ZQuestionsExport>;

/** Payments' part: tips received (earnings: amount, fee, net) and tips the person paid. */
export const ZExportTip = z.strictObject({
  questionId: z.string(),
  role: z.enum(['received', 'paid']),
  amountCents: z.number().int(),
  feeCents: z.number().int(),
  netCents: z.number().int(),
  currency: z.string(),
  /** held, captured, released… (payments' tip stage). */
  status: z.string(),
  releaseReason: z.string().nullable(),
  createdAt: z.string(),
  capturedAt: z.string().nullable(),
});
export type ExportTip = z.infer<typeof ZExportTip>;
export const ZPaymentsExport = z.strictObject({
  tips: z.array(ZExportTip),
  /** Captured tips received, in cents, per currency. */
  earnings: z.array(z.strictObject({ currency: z.string(), grossCents: z.number().int(), feeCents: z.number().int(), netCents: z.number().int() })),
});
export type PaymentsExport = z.infer<typeof ZPaymentsExport>;
