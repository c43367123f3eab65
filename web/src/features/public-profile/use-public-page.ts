import type { PublicProfile, PublicQuestion, TrustStats } from '@ques/contracts/core';
import { ApiError } from '../../lib/api';
import { fetchPublicProfile } from '../../lib/public-profile';
import { pageDataKeys, usePageData, type QuestionsData } from '../../lib/ssr';
import { useApiData } from '../../lib/use-api-data';
import { usePagedList } from '../../lib/use-paged-list';
import { fetchPublicTrustStats } from '../../lib/trust-stats';
import { fetchPublicQuestions, takePrefetched } from './api';

/** The message of what a load threw; '' while nothing failed. */
const messageOf = (err: unknown, fallback: string) => (err ? (err as Error).message || fallback : '');
const keyOf = (q: PublicQuestion) => q._id;

/**
 * Profile and answered questions of /ask/{username}, with cursor pagination ("load more"). The first requests may
 * already be under way: main.tsx starts them before React renders (see load.ts).
 */
export function usePublicPage(username: string) {
  // A server-rendered page: what the BFF loaded, embedded in the HTML (lib/ssr.tsx).
  const initialProfile = usePageData<PublicProfile>(pageDataKeys.profile(username));
  const initialQuestions = usePageData<QuestionsData>(pageDataKeys.questions(username));
  const profile = useApiData(
    (signal) => takePrefetched<PublicProfile>(`profile:${username}`) ?? fetchPublicProfile(username, signal),
    [username],
    initialProfile,
  );
  // Issue 15: the owner's trust stats (server-rendered with the page; fetched when the page was not).
  const trust = useApiData(
    (signal) => fetchPublicTrustStats(username, signal),
    [username],
    usePageData<TrustStats>(pageDataKeys.trust(username)),
  );
  const questions = usePagedList(
    (cursor, signal) =>
      (cursor === null ? takePrefetched<Awaited<ReturnType<typeof fetchPublicQuestions>>>(`questions:${username}`) : undefined) ??
      fetchPublicQuestions(username, cursor, signal),
    keyOf,
    [username],
    initialQuestions,
  );

  return {
    profile: profile.data ?? null,
    /** No such person (a 404, from the API or the server's render): the page is the designed not-found page. */
    profileNotFound: profile.error instanceof ApiError && profile.error.status === 404,
    profileError: messageOf(profile.error, 'Unknown error'),
    trust: trust.data ?? null,
    questions: questions.items,
    questionsLoading: questions.status === 'loading',
    questionsError: messageOf(questions.error, 'Failed to fetch questions'),
    hasMore: questions.hasMore,
    loadingMore: questions.loadingMore,
    loadMoreError: messageOf(questions.loadMoreError, 'Failed to fetch questions'),
    loadMore: questions.loadMore,
  };
}
