import { api } from '../../lib/api';
import type { Question } from '../../lib/api';

export const fetchQuestion = (id: string, signal?: AbortSignal) =>
  api.json<Question>(`/api/questions/${encodeURIComponent(id)}`, { signal });
