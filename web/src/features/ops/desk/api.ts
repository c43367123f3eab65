import type {
  OpsAbuseReport,
  OpsDeadLetter,
  OpsJob,
  OpsRetryOutcome,
  OpsStreamStatus,
  OpsSupportRequest,
} from '@ques/contracts/core';
import { api, newIdempotencyKey } from '../../../lib/api';

/** The services whose streams the console shows (each answers `/api/ops/streams/<service>/…`). */
export const SERVICES = ['identity', 'questions', 'payments', 'support'] as const;
export type Service = (typeof SERVICES)[number];

const base = (service: Service) => `/api/ops/streams/${service}`;

export const fetchStatus = (service: Service, signal?: AbortSignal) =>
  api.json<OpsStreamStatus>(`${base(service)}/status`, { signal });
export const fetchDeadLetters = (service: Service, signal?: AbortSignal) =>
  api.json<OpsDeadLetter[]>(`${base(service)}/dead-letters`, { signal });
export const fetchJob = (service: Service, id: string, signal?: AbortSignal) =>
  api.json<OpsJob>(`${base(service)}/jobs/${encodeURIComponent(id)}`, { signal });

/**
 * Destructive actions carry the key made when their confirmation opened: a double click, a retry after a network
 * error, or the same confirmation sent twice all answer the first result (ADR 0016).
 */
export const retryDeadLetter = (service: Service, id: number, key: string) =>
  api.json<OpsRetryOutcome>(`${base(service)}/dead-letters/${id}/retry`, { method: 'POST', idempotent: true, idempotencyKey: key });
export const dropDeadLetter = (service: Service, id: number, key: string) =>
  api.json<{ id: number; dropped: boolean }>(`${base(service)}/dead-letters/${id}/drop`, { method: 'POST', idempotent: true, idempotencyKey: key });
export const startRebuild = (service: Service, key: string) =>
  api.json<OpsJob>(`${base(service)}/rebuild`, { method: 'POST', idempotent: true, idempotencyKey: key });
export const startRepublish = (service: Service, range: { from: number; to?: number }, key: string) =>
  api.json<OpsJob>(`${base(service)}/republish`, { method: 'POST', body: range, idempotent: true, idempotencyKey: key });

export const fetchSupportRequests = (filter: { status?: string; category?: string }, signal?: AbortSignal) =>
  api.json<OpsSupportRequest[]>('/api/ops/support/requests', { query: filter, signal });
export const answerSupportRequest = (id: string, note: string, key: string) =>
  api.json<OpsSupportRequest>(`/api/ops/support/requests/${id}/answer`, { method: 'POST', body: { note }, idempotent: true, idempotencyKey: key });

export const fetchReports = (filter: { status?: string }, signal?: AbortSignal) =>
  api.json<OpsAbuseReport[]>('/api/ops/support/reports', { query: filter, signal });
export const hideAnswer = (questionId: string, reason: string, reportId: string, key: string) =>
  api.json<{ questionId: string; hidden: true; reason: string }>(`/api/ops/questions/${questionId}/hide`, {
    method: 'POST',
    body: { reason, reportId },
    idempotent: true,
    idempotencyKey: key,
  });
export const resolveReport = (id: string, resolution: 'hidden' | 'dismissed', note: string | undefined, key: string) =>
  api.json<OpsAbuseReport>(`/api/ops/support/reports/${id}/resolve`, {
    method: 'POST',
    body: { resolution, ...(note ? { note } : {}) },
    idempotent: true,
    idempotencyKey: key,
  });

export { newIdempotencyKey };
