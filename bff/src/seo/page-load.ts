import type { FastifyBaseLogger } from 'fastify';
import type { PublicProfile, PublicQuestion } from '@ques/contracts';
import { profilePath } from '@ques/contracts/core';
import type { ServiceName } from '../upstreams.js';
import type { GetJson } from './upstream-json.js';

/** What a page kind's loader (profile-page.ts, answer-page.ts, status-page.ts) gets from the renderer. */
export interface PageLoadContext {
  /** The configured public origin (absolute URLs in the metadata). */
  origin: string;
  get: GetJson;
  has: (service: ServiceName) => boolean;
  /** Pages are server-rendered (not only their metadata block): load what the web app's first render needs. */
  renders: boolean;
  log: FastifyBaseLogger;
}

/** Identity answered with the profile under another handle: `handle` was renamed away (issue 28). */
export const isRenamed = (profile: PublicProfile, handle: string) => profile.username.toLowerCase() !== handle.toLowerCase();
/** `/ask/{old}/…` as `/ask/{new}/…`. */
export const movedPath = (pathname: string, handle: string) => pathname.replace(/^\/ask\/[^/]+/i, profilePath(handle));

export const belongsTo = (q: PublicQuestion, profile: PublicProfile) =>
  (q.toUsername ?? '').toLowerCase() === profile.username.toLowerCase();
export const isPublished = (q: PublicQuestion) =>
  Boolean(q.answer?.trim()) && q.displayOnProfile !== false && !q.deletedByReceiver;

/** Identity's public profile of `username` (`GET /api/users/public/:username`). */
export const publicProfile = (ctx: PageLoadContext, username: string) =>
  ctx.get<PublicProfile>('identity', `/api/users/public/${encodeURIComponent(username)}`);
