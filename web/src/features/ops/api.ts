import type { OperatorAuditEntry, OperatorAuditPage } from '@ques/contracts/core';
import { api } from '../../lib/api';

/** Services whose operator actions the audit list shows (each answers `GET /api/ops/audit/<service>`). */
export const AUDITED_SERVICES = ['identity', 'questions', 'support', 'payments'] as const;

/** The latest operator actions of every service, newest first (one list: who, what, when). */
export async function fetchAudit(signal?: AbortSignal): Promise<OperatorAuditEntry[]> {
  const pages = await Promise.all(
    AUDITED_SERVICES.map((service) => api.json<OperatorAuditPage>(`/api/ops/audit/${service}`, { query: { limit: 100 }, signal })),
  );
  return pages.flatMap((p) => p.entries).sort((a, b) => b.at.localeCompare(a.at));
}
