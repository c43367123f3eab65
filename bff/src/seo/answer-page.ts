import { isUuid, type PublicQuestion } from '@ques/contracts';
import { questionMeta } from '@ques/contracts/core';
import { belongsTo, isPublished, isRenamed, publicProfile, type PageLoadContext } from './page-load.js';
import { notFound, type Loaded } from './route.js';
import { UpstreamError } from './upstream-json.js';

/**
 * `/ask/:username/question/:id/:slug?`: the owner's public profile and the question, which must be theirs, answered
 * and public; anything else is the not-found page.
 */
export async function loadAnswerPage(route: { username: string; id: string }, ctx: PageLoadContext): Promise<Loaded> {
  const notHere = (ownerId?: string) => notFound({ kind: 'question', ...route }, ownerId);
  // An id that is no UUID names no answer: nothing to ask the services.
  if (!isUuid(route.id)) return notHere();
  if (!ctx.has('questions')) throw new UpstreamError('questions service not configured');
  const [profile, question] = await Promise.all([
    publicProfile(ctx, route.username),
    ctx.get<PublicQuestion>('questions', `/api/questions/${encodeURIComponent(route.id)}`),
  ]);
  if (profile.body && isRenamed(profile.body, route.username))
    return { status: 'moved', movedTo: profile.body.username, meta: null, values: {}, complete: true, ownerId: profile.body._id, questionIds: [route.id] };
  if (!profile.body || !question.body || !belongsTo(question.body, profile.body) || !isPublished(question.body))
    return notHere(profile.body?._id);
  return {
    status: 200,
    meta: questionMeta(ctx.origin, profile.body, question.body),
    values: { [`answer:${route.id}`]: { data: { question: question.body, profile: profile.body } } },
    complete: true,
    ownerId: profile.body._id,
  };
}
