import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PageMeta } from '@ques/contracts/core';
import { pageTemplate, type PageTemplate, type ViteManifest } from './template.js';

/** The web app's server render (web/src/entry-server.tsx, built into web/dist-server by `npm run build -w @ques/web`). */
export interface ServerRender {
  renderPage(
    url: string,
    data: unknown,
    options: { origin: string; timeoutMs?: number },
  ): Promise<{ html: string; meta: PageMeta | null }>;
}

export interface PageRendering {
  render: ServerRender;
  template: PageTemplate;
}

/**
 * The server render and the document template of a build: `dist-server/entry-server.js` next to `dist`, and the
 * client build's manifest. Null (pages then go out as the app shell with their share tags, as before) when either is
 * missing or the shell cannot take a render.
 */
export async function loadPageRendering(
  webDist: string,
  shellHtml: string,
  serverDist = join(webDist, '..', 'dist-server'),
): Promise<PageRendering | null> {
  const entry = join(serverDist, 'entry-server.js');
  const manifestPath = join(webDist, '.vite', 'manifest.json');
  if (!(await stat(entry).catch(() => null)) || !(await stat(manifestPath).catch(() => null))) return null;
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as ViteManifest;
  const template = pageTemplate(shellHtml, manifest);
  if (!template) return null;
  const render = (await import(pathToFileURL(entry).href)) as ServerRender;
  return typeof render.renderPage === 'function' ? { render, template } : null;
}
