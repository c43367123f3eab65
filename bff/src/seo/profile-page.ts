import type { PublicQuestion } from '@ques/contracts';
import { profileMeta, STRUCTURED_DATA_QUESTIONS, type TrustStats } from '@ques/contracts/core';
import { belongsTo, isPublished, isRenamed, publicProfile, type PageLoadContext } from './page-load.js';
import { notFound, type Loaded } from './route.js';

/** The web app's first page of public answers (web/src/features/public-profile/api.ts QUESTIONS_PAGE_SIZE). */
export const PUBLIC_PAGE_SIZE = 24;

/**
 * `/ask/:username`: identity's public profile, questions' first page of public answers (and its cursor), whether the
 * owner takes questions now, and their trust stats. Only the profile is required; without the answers the page is
 * rendered (and its preview right) but not cached.
 */
export async function loadProfilePage(username: string, ctx: PageLoadContext): Promise<Loaded> {
  const [profile, answers, asking, trust] = await Promise.all([
    publicProfile(ctx, username),
    firstAnswers(username, ctx),
    ctx.renders ? askingStatus(username, ctx) : null,
    trustStats(username, ctx),
  ]);
  const profileKey = `profile:${username}`;
  const questionsKey = `questions:${username}`;
  if (profile.body && isRenamed(profile.body, username))
    return { status: 'moved', movedTo: profile.body.username, meta: null, values: {}, complete: true, ownerId: profile.body._id };
  if (!profile.body) return notFound({ kind: 'profile', username });
  // Without the answers the preview is still right; only the FAQ data is missing (and the page not cached).
  const mine = answers.items.filter((q) => belongsTo(q, profile.body!));
  const meta = profileMeta(ctx.origin, profile.body, mine, trust);
  const values: Loaded['values'] = { [profileKey]: { data: profile.body } };
  if (answers.complete) values[questionsKey] = { data: { items: answers.page, nextCursor: answers.nextCursor } };
  // Paused or at the owner's cap (issue 16): the page says so in place of the ask button.
  if (asking) values[`asking:${username}`] = { data: asking };
  // Issue 15: the owner's trust stats (figures once established), shown and in the structured data.
  if (trust) values[`trust:${username}`] = { data: trust };
  return {
    status: 200,
    meta,
    values,
    complete: answers.complete,
    ownerId: profile.body._id,
    questionIds: answers.page.map((q) => q._id),
  };
}

/**
 * The first page of the public list (spec §7 `GET /api/questions?username=X&role=receiver`), newest first: as
 * many as the web app's first page when the page is rendered, the structured data's few otherwise.
 */
async function firstAnswers(username: string, ctx: PageLoadContext) {
  const none = { items: [] as PublicQuestion[], page: [] as PublicQuestion[], nextCursor: null as string | null, complete: false };
  if (!ctx.has('questions')) return none;
  try {
    const limit = ctx.renders ? PUBLIC_PAGE_SIZE : STRUCTURED_DATA_QUESTIONS;
    const query = new URLSearchParams({ username, role: 'receiver', limit: String(limit) });
    const list = await ctx.get<PublicQuestion[]>('questions', `/api/questions?${query}`);
    const page = Array.isArray(list.body) ? list.body : [];
    const items = page.filter(isPublished);
    return { items: ctx.renders ? items : items.slice(0, STRUCTURED_DATA_QUESTIONS), page, nextCursor: list.nextCursor, complete: true };
  } catch (err) {
    ctx.log.warn({ err, username }, 'public answers unavailable for the page');
    return none;
  }
}

/** Whether the owner takes questions now (`GET /api/asking/status/:username`); null when unknown (the app asks). */
async function askingStatus(username: string, ctx: PageLoadContext): Promise<unknown> {
  if (!ctx.has('questions')) return null;
  try {
    return (await ctx.get<unknown>('questions', `/api/asking/status/${encodeURIComponent(username)}`)).body;
  } catch (err) {
    ctx.log.warn({ err, username }, 'asking status unavailable for the page');
    return null;
  }
}

/** The owner's public trust stats (`GET /api/trust-stats/:username`, issue 15); null when unknown. */
async function trustStats(username: string, ctx: PageLoadContext): Promise<TrustStats | null> {
  if (!ctx.has('questions')) return null;
  try {
    return (await ctx.get<TrustStats>('questions', `/api/trust-stats/${encodeURIComponent(username)}`)).body;
  } catch (err) {
    ctx.log.warn({ err, username }, 'trust stats unavailable for the page');
    return null;
  }
}
