import { jsonForScript } from '@ques/contracts/core';
import { splitIndexHtml, withMetaBlock, type IndexParts } from '../seo/meta.js';

/*
 * The document around a server-rendered page (docs/adr/0024), made once from the built app shell and the Vite
 * manifest. Pure: no I/O.
 *
 * What changes from the shell: the app's module script and its modulepreloads go (the page is complete without
 * them); the public entry (`src/public-entry.ts`, ~1 kB) loads instead and imports the app, named in its
 * `data-app`, on the visitor's first intent; the page's own stylesheets are linked (the screen's lazy chunk would
 * otherwise bring them only with the JavaScript); the "needs JavaScript" notice goes; `#root` holds the render, and
 * the data it was rendered with follows as a non-executable JSON script (CSP `script-src 'self'` stays).
 */

/** The screens the server renders, by the module App.tsx loads lazily for each (keys of the Vite manifest). */
export const SCREENS = {
  home: 'src/features/home/HomePage.tsx',
  terms: 'src/features/legal/TermsPage.tsx',
  privacy: 'src/features/legal/PrivacyPage.tsx',
  profile: 'src/features/public-profile/ProfilePage.tsx',
  question: 'src/features/question/QuestionPage.tsx',
  status: 'src/features/status/StatusPage.tsx',
} as const;
export type Screen = keyof typeof SCREENS;

export const APP_ENTRY = 'index.html';
export const PUBLIC_ENTRY = 'src/public-entry.ts';
/** The id of the embedded page data (web/src/lib/ssr.tsx PAGE_DATA_ID) and of the public entry's script. */
export const PAGE_DATA_ID = 'ques-page-data';
export const APP_SCRIPT_ID = 'ques-app';

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}
export type ViteManifest = Record<string, ManifestChunk>;

export interface PageTemplate {
  head: IndexParts;
  /** Between the metadata block's end and `#root`'s content (the rest of the head, the body's start). */
  beforeRoot: string;
  afterRoot: string;
  /** Per screen: the `<link rel="stylesheet">` tags of its chunks that the shell does not already link. */
  styles: Record<Screen, string>;
}

const ROOT = '<div id="root"></div>';

function cssOf(manifest: ViteManifest, key: string, seen = new Set<string>()): string[] {
  if (seen.has(key)) return [];
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) return [];
  return [...(chunk.css ?? []), ...(chunk.imports ?? []).flatMap((k) => cssOf(manifest, k, seen))];
}

/** Null when the build is not one this BFF can render into (no markers, no public entry, an older build). */
export function pageTemplate(shellHtml: string, manifest: ViteManifest): PageTemplate | null {
  const app = manifest[APP_ENTRY];
  const entry = manifest[PUBLIC_ENTRY];
  if (!app || !entry || !shellHtml.includes(ROOT)) return null;
  const appScript = new RegExp(`<script type="module"[^>]*src="/${escapeRe(app.file)}"[^>]*></script>\\s*`);
  if (!appScript.test(shellHtml)) return null;
  const html = shellHtml
    .replace(appScript, '')
    .replace(/<link rel="modulepreload"[^>]*>\s*/g, '')
    .replace(/<noscript>[\s\S]*?<\/noscript>\s*/, '')
    .replace(
      '</head>',
      `  <script type="module" crossorigin id="${APP_SCRIPT_ID}" src="/${entry.file}" data-app="/${app.file}"></script>\n  </head>`,
    );
  const [top, bottom] = html.split(ROOT) as [string, string];
  const parts = splitIndexHtml(top);
  if (!parts) return null;
  const shellCss = new Set(cssOf(manifest, APP_ENTRY));
  const styles = Object.fromEntries(
    Object.entries(SCREENS).map(([screen, key]) => [
      screen,
      [...new Set(cssOf(manifest, key))]
        .filter((file) => !shellCss.has(file))
        .map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`)
        .join(''),
    ]),
  ) as Record<Screen, string>;
  return { head: { head: parts.head, tail: '' }, beforeRoot: parts.tail, afterRoot: bottom, styles };
}

export interface PageParts {
  screen: Screen;
  /** The metadata block (seo/meta.ts renderMetaBlock). */
  metaBlock: string;
  /** `#root`'s content from the server render. */
  rootHtml: string;
  /** What the page was rendered with (web/src/lib/ssr.tsx PageData). */
  data: unknown;
  /** The page lacks data (an upstream failed): the app loads at once to fetch it, not on intent. */
  hydrateNow: boolean;
  /**
   * The page is live (the status page's countdown, a payment being confirmed): the app loads once the page has loaded
   * and painted, not only on intent (ADR 0058 measured this against loading at once).
   */
  hydrateAfterPaint?: boolean;
  /** Kept out of search engines (the status page): the document's one robots meta. */
  noindex?: boolean;
}

/** The robots meta of a private page (web/serve.ts sends the same as `X-Robots-Tag`). */
export const NOINDEX = 'noindex, nofollow';

/** React hoists the resources it meets (the LCP avatar's preload) to the start of the render: they go to the head. */
const HOISTED = /^(?:<link [^>]*\/?>)+/;

export function composePage(template: PageTemplate, page: PageParts): string {
  const hoisted = HOISTED.exec(page.rootHtml)?.[0] ?? '';
  const root = page.rootHtml.slice(hoisted.length);
  let head = template.head.head;
  if (page.hydrateNow) head = head.replace(/<html([^>]*)>/, '<html$1 data-hydrate-now>');
  else if (page.hydrateAfterPaint) head = head.replace(/<html([^>]*)>/, '<html$1 data-hydrate-after-paint>');
  const tail = template.beforeRoot.replace(
    '</head>',
    `${hoisted}${template.styles[page.screen]}</head>`,
  );
  const block = page.noindex ? `${page.metaBlock}\n    <meta name="robots" content="${NOINDEX}">` : page.metaBlock;
  return (
    withMetaBlock({ head, tail }, block) +
    `<div id="root">${root}</div><script type="application/json" id="${PAGE_DATA_ID}">${jsonForScript(page.data)}</script>` +
    template.afterRoot
  );
}

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
