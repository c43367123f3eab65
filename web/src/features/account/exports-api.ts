import type { DataExport, LatestExport } from '@ques/contracts/core';
import { api, ApiError, readErrorMessage } from '../../lib/api';

/** The data export (issue 15): ask for one, follow its state, download its ZIP with the session's token. */
export const fetchLatestExport = (signal?: AbortSignal) => api.json<LatestExport>('/api/users/exports', { signal });

export const requestExport = () => api.json<DataExport>('/api/users/exports', { method: 'POST', body: {} });

export const fetchExport = (id: string, signal?: AbortSignal) =>
  api.json<DataExport>(`/api/users/exports/${encodeURIComponent(id)}`, { signal });

/** The ZIP as a Blob: the download needs the bearer token, so it is fetched, never a plain link. */
export async function downloadExport(id: string): Promise<{ blob: Blob; filename: string }> {
  const res = await api.request(`/api/users/exports/${encodeURIComponent(id)}/download`);
  if (!res.ok) {
    const { message, body } = await readErrorMessage(res);
    throw new ApiError(res.status, message, body);
  }
  const disposition = res.headers.get('content-disposition') ?? '';
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'ques-export.zip';
  return { blob: await res.blob(), filename };
}
