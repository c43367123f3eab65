import { useCallback, useEffect, useRef, useState } from 'react';
import type { PublicProfile, Question } from '../../lib/api';
import {
  fetchPublicProfile,
  fetchPublicQuestions,
  takePrefetched,
  type QuestionsPage,
} from './api';

export interface PublicPageState {
  profile: PublicProfile | null;
  profileError: string;
  questions: Question[];
  questionsLoading: boolean;
  questionsError: string;
  nextCursor: string | null;
  loadingMore: boolean;
  loadMoreError: string;
}

const initial: PublicPageState = {
  profile: null,
  profileError: '',
  questions: [],
  questionsLoading: true,
  questionsError: '',
  nextCursor: null,
  loadingMore: false,
  loadMoreError: '',
};

const isAbort = (err: unknown) => err instanceof DOMException && err.name === 'AbortError';

function merge(existing: readonly Question[], incoming: readonly Question[]): Question[] {
  const seen = new Set(existing.map((q) => q._id));
  return [...existing, ...incoming.filter((q) => !seen.has(q._id))];
}

/** Profile and answered questions of /ask/{username}, with cursor pagination ("load more"). */
export function usePublicPage(username: string) {
  const [state, setState] = useState<PublicPageState>(initial);
  const generation = useRef(0);

  useEffect(() => {
    const gen = ++generation.current;
    const controller = new AbortController();
    const live = () => generation.current === gen;
    setState(initial);

    const profile =
      takePrefetched<PublicProfile>(`profile:${username}`) ?? fetchPublicProfile(username, controller.signal);
    const questions =
      takePrefetched<QuestionsPage>(`questions:${username}`) ??
      fetchPublicQuestions(username, null, controller.signal);

    profile.then(
      (p) => live() && setState((s) => ({ ...s, profile: p })),
      (err: unknown) =>
        live() && !isAbort(err) && setState((s) => ({ ...s, profileError: (err as Error).message || 'Unknown error' })),
    );
    questions.then(
      (page) =>
        live() &&
        setState((s) => ({ ...s, questions: page.items, nextCursor: page.nextCursor, questionsLoading: false })),
      (err: unknown) =>
        live() &&
        !isAbort(err) &&
        setState((s) => ({
          ...s,
          questionsLoading: false,
          questionsError: (err as Error).message || 'Failed to fetch questions',
        })),
    );
    return () => {
      generation.current++;
      controller.abort();
    };
  }, [username]);

  const loadingMoreRef = useRef(false);
  const loadMore = useCallback(() => {
    const cursor = state.nextCursor;
    if (!cursor || loadingMoreRef.current) return;
    loadingMoreRef.current = true;
    const gen = generation.current;
    setState((s) => ({ ...s, loadingMore: true, loadMoreError: '' }));
    fetchPublicQuestions(username, cursor)
      .then((page) => {
        if (generation.current !== gen) return;
        setState((s) => ({
          ...s,
          questions: merge(s.questions, page.items),
          nextCursor: page.nextCursor,
          loadingMore: false,
        }));
      })
      .catch((err: unknown) => {
        if (generation.current !== gen) return;
        setState((s) => ({ ...s, loadingMore: false, loadMoreError: (err as Error).message || 'Failed to fetch questions' }));
      })
      .finally(() => {
        loadingMoreRef.current = false;
      });
  }, [state.nextCursor, username]);

  return { ...state, loadMore };
}
