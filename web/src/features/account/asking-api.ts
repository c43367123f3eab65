import type { AskerBlock, AskingSettings } from '@ques/contracts/core';
import { api } from '../../lib/api';

/** The owner's asking settings and blocks (issue 16). */
export const fetchAskingSettings = (signal?: AbortSignal) => api.json<AskingSettings>('/api/asking/settings', { signal });

export const saveAskingSettings = (body: Partial<AskingSettings>) =>
  api.json<AskingSettings>('/api/asking/settings', { method: 'PUT', body });

export const fetchBlocks = (signal?: AbortSignal) => api.json<AskerBlock[]>('/api/asking/blocks', { signal });

export const liftBlock = (id: string) =>
  api.json<{ message: string }>(`/api/asking/blocks/${encodeURIComponent(id)}`, { method: 'DELETE' });
