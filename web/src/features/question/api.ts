import { api } from '../../lib/api';
import type { PublicQuestion } from '@ques/contracts/core';

export const fetchQuestion = (id: string, signal?: AbortSignal) =>
  api.json<PublicQuestion>(`/api/questions/${encodeURIComponent(id)}`, { signal });
