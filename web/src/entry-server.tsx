/**
 * The server render of the public pages (docs/adr/0024), built with `vite build --ssr` into dist-server/ and imported
 * by the BFF: the same App, routes and components the browser runs, rendered for one URL with the data the BFF loaded
 * (lib/ssr.tsx). The browser hydrates this HTML from the same data (main.tsx), so both renders must stay equal: the
 * tree here is the one main.tsx builds, with react-router's StaticRouter for the URL instead of the browser's history
 * (a server render never navigates: the effects that would — a redirect, an old handle's rewrite — run in the browser).
 */
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { App } from './app/App';
import type { PageMeta } from '@ques/contracts/core';
import { HeadCollector, setSiteOrigin } from './lib/head';
import { StaticRouter } from 'react-router-dom';
import { PageDataProvider, type PageData } from './lib/ssr';

export { PAGE_DATA_ID, pageDataKeys, type Loaded, type PageData } from './lib/ssr';

export interface RenderOptions {
  /** The configured public origin (canonical links, share tags). */
  origin: string;
  /** Gives up after this long (React then leaves the Suspense fallbacks, the spec's loading texts). */
  timeoutMs?: number;
}

export interface RenderedPage {
  /** `#root`'s content. */
  html: string;
  /** The metadata the page declared (`useDocumentHead`): its title, share tags and JSON-LD. Null: the defaults. */
  meta: PageMeta | null;
}

/** `#root`'s HTML for `url` (path and query), rendered with `data`; every lazy screen is awaited. */
export async function renderPage(url: string, data: PageData, options: RenderOptions): Promise<RenderedPage> {
  setSiteOrigin(options.origin);
  const holder = { current: data };
  const errors: unknown[] = [];
  let meta: PageMeta | null = null;
  const collect = (declared: PageMeta) => void (meta = declared);
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouter location={url}>
        <HeadCollector.Provider value={collect}>
          <PageDataProvider holder={holder}>
            <App />
          </PageDataProvider>
        </HeadCollector.Provider>
      </StaticRouter>
    </StrictMode>,
    {
      signal: AbortSignal.timeout(options.timeoutMs ?? 2_000),
      // Every boundary inline, whatever its size: React otherwise moves a large one (a profile with many answers)
      // after a fallback with an inline script to swap it in — a script CSP forbids, and JavaScript-less visitors
      // would see "Loading…" forever.
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      onError: (error) => void errors.push(error),
    },
  );
  if (errors.length) throw errors[0] instanceof Error ? errors[0] : new Error(String(errors[0]));
  return { html: await new Response(prelude).text(), meta };
}
