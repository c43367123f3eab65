import { z } from 'zod';
import { defineCall } from './call.js';

/*
 * Issue 15, public trust stats (docs/adr/0029): computed by questions' `trust_timings` projection over the last 90
 * days. Public: figures only once established (5 answered questions); the owner's own call always has them.
 * Private questions count in the rates; no field names or shows one.
 */

const ZTrustFigures = z.strictObject({
  answered: z.number().int().nonnegative(),
  medianAnswerSeconds: z.number().nonnegative().nullable(),
  answeredWithinWindow: z.number().min(0).max(1).nullable(),
  publicAnswers: z.number().int().nonnegative(),
});
export const ZTrustStats = z.strictObject({
  periodDays: z.number().int(),
  windowDays: z.number().int(),
  established: z.boolean(),
  figures: ZTrustFigures.nullable(),
});

export const trustApi = {
  publicTrustStats: defineCall({
    id: 'getPublicTrustStats',
    method: 'GET',
    path: '/api/trust-stats/:username',
    service: 'questions',
    summary: "An owner's public trust stats (last 90 days); figures only from 5 answered questions",
    auth: 'none',
    errors: { 404: ['User not found'] },
    schema: { params: z.object({ username: z.string().max(100) }), response: { 200: ZTrustStats } },
  }),
  myTrustStats: defineCall({
    id: 'getMyTrustStats',
    method: 'GET',
    path: '/api/trust-stats',
    service: 'questions',
    summary: 'The signed-in owner’s own trust stats, with figures from the first answer',
    auth: 'required',
    schema: { response: { 200: ZTrustStats } },
  }),
};
