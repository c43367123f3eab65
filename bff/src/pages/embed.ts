import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { PublicProfile } from '@ques/contracts';
import {
  brandColor,
  DEFAULT_BRAND_LIGHT,
  DEFAULT_BRAND_MAIN,
  EMBED_PREFIX,
  embedLabel,
  escapeHtml,
  profilePath,
  textOn,
} from '@ques/contracts/core';
import type { Upstreams } from '../upstreams.js';

/*
 * The embeddable ask button (issue 15, docs/adr/0030): `/embed/{username}` is a tiny self-contained HTML card — the
 * owner's name and avatar-free button "Ask {name} a question" in the owner's brand colours, a link that opens the
 * profile in a new tab. It is the ONLY page of Ques another site may frame (`frame-ancestors *` here, `'none'` on
 * everything else: app.ts), and it loads nothing: no app JavaScript, no fonts, no images, no tracking (its CSP is
 * `default-src 'none'` with inline styles only). An archive profile gets a "View {name}'s answers" link instead (archives
 * take no questions, spec §2); an unknown or deleted profile is a 404.
 */

/** The card's CSP: nothing can load; it may be framed anywhere. */
export const EMBED_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors *";

/**
 * The card (pure). The label wraps rather than being cut ("Ask Mira Castell a quest…", issue 28): up to three lines fit
 * the snippet's 320 × 80 frame.
 */
export function embedHtml(origin: string, profile: PublicProfile): string {
  const main = brandColor(profile.brandColorMain, DEFAULT_BRAND_MAIN);
  const light = brandColor(profile.brandColorLight, DEFAULT_BRAND_LIGHT);
  const href = `${origin}${profilePath(profile.username)}`;
  const words = embedLabel(profile);
  const label = escapeHtml(words);
  // A long name (up to 80 characters) gets a smaller type: the label stays whole within the 80 px frame.
  const size = words.length > 64 ? 12 : 15;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${label} · Ques</title><style>html,body{margin:0;height:100%}body{display:flex;align-items:center;justify-content:center;background:${light};font:600 ${size}px/1.2 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}main{box-sizing:border-box;max-width:100%;padding:0 8px}a{display:inline-block;padding:${size < 15 ? '6px 12px' : '8px 16px'};border-radius:8px;background:${main};color:${textOn(main)};text-decoration:none;max-width:100%;box-sizing:border-box;text-align:center;overflow-wrap:anywhere}a:hover{text-decoration:underline}a:focus-visible{outline:3px solid ${textOn(light)};outline-offset:3px}</style></head><body><main><a href="${escapeHtml(href)}" target="_blank" rel="noopener">${label}</a></main></body></html>`;
}

const NOT_FOUND_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Not found · Ques</title></head><body><main><p>This profile is not available.</p></main></body></html>';

/** The card's route (hidden from the API docs: it is a page, not a call). */
const EMBED_ROUTE_SCHEMA = {
  hide: true,
  params: z.object({ username: z.string() }),
  response: {
    200: z.string().meta({ description: 'The card (HTML)' }),
    404: z.string().meta({ description: 'Unknown or deleted profile (HTML)' }),
    503: z.string().meta({ description: 'Profiles unavailable (HTML)' }),
  },
};

/** `GET /embed/:username`: read from identity's public profile, cached for a minute (and by browsers/CDNs too). */
export function registerEmbed(app: FastifyInstance, opts: { upstreams: Upstreams; publicOrigin: string }): void {
  const origin = opts.publicOrigin.replace(/\/+$/, '');
  app.get<{ Params: { username: string } }>(
    `${EMBED_PREFIX}:username`,
    { schema: EMBED_ROUTE_SCHEMA },
    async (request, reply) => {
      // Framing allowed here and only here: the helmet defaults (frame-ancestors 'none', X-Frame-Options) replaced.
      void reply
        .header('content-security-policy', EMBED_CSP)
        .removeHeader('x-frame-options')
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('referrer-policy', 'no-referrer')
        .type('text/html; charset=utf-8');
      const username = request.params.username.trim().toLowerCase();
      if (!username || username.length > 100) return reply.code(404).header('cache-control', 'no-store').send(NOT_FOUND_HTML);
      const res = await opts.upstreams.request('identity', {
        path: `/api/users/public/${encodeURIComponent(username)}`,
        method: 'GET',
        headers: { accept: 'application/json', 'x-correlation-id': request.correlationId },
        signal: AbortSignal.timeout(5_000),
      });
      if (res.statusCode === 404 || res.statusCode === 400) {
        await res.body.dump();
        return reply.code(404).header('cache-control', 'public, max-age=60').send(NOT_FOUND_HTML);
      }
      if (res.statusCode !== 200) {
        await res.body.dump();
        return reply.code(503).header('cache-control', 'no-store').send(NOT_FOUND_HTML.replace('Not found', 'Unavailable').replace('This profile is not available.', 'Please try again later.'));
      }
      const profile = (await res.body.json()) as PublicProfile;
      // A handle renamed away (issue 28): sites embedding the old card get the new one.
      if (profile.username !== username)
        return reply.header('cache-control', 'public, max-age=300').redirect(`${EMBED_PREFIX}${encodeURIComponent(profile.username)}`, 301);
      // Short: a new name or colour shows on other sites within minutes; a deleted account's card goes as soon.
      return reply.header('cache-control', 'public, max-age=300').send(embedHtml(origin, profile));
    },
  );
}
