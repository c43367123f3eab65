import type { ArchiveProfile } from '@ques/contracts/core';
import { api } from '../../../lib/api';

export interface ArchiveInput {
  name: string;
  username?: string;
  bio: string;
  sources: string;
}

export const fetchArchives = async (signal?: AbortSignal) =>
  (await api.json<{ archives: ArchiveProfile[] }>('/api/ops/archives', { signal })).archives;

export const createArchive = (input: ArchiveInput) =>
  api.json<ArchiveProfile>('/api/ops/archives', { method: 'POST', body: { ...input, username: input.username || undefined } });

export const updateArchive = (id: string, input: Omit<ArchiveInput, 'username'>) =>
  api.json<ArchiveProfile>(`/api/ops/archives/${encodeURIComponent(id)}`, { method: 'PUT', body: input });

export const markArchive = (id: string, archive: boolean) =>
  api.json<ArchiveProfile>(`/api/ops/archives/${encodeURIComponent(id)}/mark`, { method: 'POST', body: { archive } });
