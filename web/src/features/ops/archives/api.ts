import type { ArchiveProfile, Question } from '@ques/contracts/core';
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

/** The archive's avatar (multipart, one file `avatar`): the owner's limits and processing (2 MB, re-encoded). */
export const uploadArchiveAvatar = (id: string, file: File) =>
  api.json<ArchiveProfile>(`/api/ops/archives/${encodeURIComponent(id)}/avatar`, {
    method: 'POST',
    // A function so the retry after a token refresh sends a fresh body.
    body: () => {
      const form = new FormData();
      form.append('avatar', file);
      return form;
    },
  });

/** One curated Q&A of an archive as the console sends it: the curate form's fields, the source required. */
export interface CuratedInput {
  question: string;
  detail: string;
  answer: string;
  tags: string[];
  source: string;
  displayOnProfile: boolean;
}

export const fetchCurated = (archiveId: string, signal?: AbortSignal) =>
  api.json<Question[]>(`/api/ops/archives/${encodeURIComponent(archiveId)}/curated`, { signal });

/** One Idempotency-Key per submit: a retried submit names the Q&A its first attempt created. */
export const createCurated = (archiveId: string, input: CuratedInput) =>
  api.json<Question>(`/api/ops/archives/${encodeURIComponent(archiveId)}/curated`, { method: 'POST', body: input, idempotent: true });

export const editCurated = (id: string, input: Pick<CuratedInput, 'answer' | 'tags' | 'source'>) =>
  api.json<Question>(`/api/ops/curated/${encodeURIComponent(id)}`, { method: 'PUT', body: input });

export const showCurated = (id: string, displayOnProfile: boolean) =>
  api.json<Question>(`/api/ops/curated/${encodeURIComponent(id)}`, { method: 'PATCH', body: { displayOnProfile } });

export const deleteCurated = (id: string) =>
  api.json<{ questionId: string; deleted: true }>(`/api/ops/curated/${encodeURIComponent(id)}`, { method: 'DELETE' });
