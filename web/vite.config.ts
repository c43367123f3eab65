import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const API_TARGET = 'http://127.0.0.1:3000';
const publicDir = fileURLToPath(new URL('./public', import.meta.url));
const indexHtml = fileURLToPath(new URL('./index.html', import.meta.url));
const publicEntry = fileURLToPath(new URL('./src/public-entry.ts', import.meta.url));

/**
 * Absolute origin of the static default metadata in index.html (canonical, og:url, og:image): QUES_SITE_ORIGIN, else
 * a placeholder on the reserved `.invalid` domain — never a real, hard-coded one. The BFF serves the shell with these
 * URLs moved to its configured PUBLIC_ORIGIN (bff/src/web/html.ts), so the build need not know where it will run;
 * the app reads that origin back from the canonical link (src/lib/head.ts `siteOrigin`).
 */
const SITE_ORIGIN = (process.env.QUES_SITE_ORIGIN ?? 'https://site-origin.invalid').replace(/\/+$/, '');

function siteOrigin(): Plugin {
  return {
    name: 'ques-site-origin',
    transformIndexHtml: (html) => html.replaceAll('__SITE_ORIGIN__', SITE_ORIGIN),
  };
}

/**
 * The code every page runs before its own chunk, as ONE chunk next to a tiny entry (main.tsx): React and the router,
 * the app shell (App, Header and the components they render), src/lib (API client, session, page metadata, data
 * hooks), the contracts' zod-free modules those use, the public profile's first-paint prefetch and Vite's preload
 * helper. Left to itself Rolldown spreads these over several common chunks (React in one, each helper in another),
 * and the public profile fetched seven files, each compressed on its own: +1.9 kB gzip for the same code
 * (`npm run budgets -w @ques/web`). Every screen and modal stays its own lazy chunk. The helper belongs here:
 * App's lazy imports use it, and a shared chunk importing it back from the entry would make a cycle.
 */
const SHARED = [
  /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/,
  /[\\/]src[\\/]lib[\\/]/,
  /[\\/]src[\\/]app[\\/](App|Header)\.tsx$/,
  // Toast: the shell mounts its provider and lazy screens call useToast (in the entry, they would import it back).
  /[\\/]src[\\/]components[\\/](Banner|Avatar|Logo|Toast)\.tsx$/,
  /[\\/]src[\\/]features[\\/]public-profile[\\/](load|api)\.ts$/,
  /[\\/]contracts[\\/]dist[\\/]core[\\/](identity|questions|page-meta|time-zone)\.js$/,
];
const isShared = (id: string) => id === '\0vite/preload-helper.js' || SHARED.some((pattern) => pattern.test(id));

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), siteOrigin()],
  server: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/images': {
        target: API_TARGET,
        changeOrigin: false,
        // Files that ship with the web app (the default avatar) are served by Vite itself;
        // uploaded avatars come from the BFF.
        bypass: (req) => {
          const path = (req.url ?? '').split('?')[0] ?? '';
          return existsSync(publicDir + path) ? req.url : undefined;
        },
      },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
    },
  },
  // `vite build --ssr src/entry-server.tsx --outDir dist-server`: the server render the BFF imports (docs/adr/0024).
  build: isSsrBuild
    ? { target: 'node20', sourcemap: true, emptyOutDir: true, copyPublicDir: false }
    : {
        target: 'es2022',
        sourcemap: true,
        // Every browser that runs es2022 modules supports <link rel=modulepreload>; the polyfill is dead weight.
        modulePreload: { polyfill: false },
        rolldownOptions: {
          // The app (index.html → main.tsx), and the small script server-rendered pages load instead
          // (src/public-entry.ts: the app on the visitor's first intent).
          input: { index: indexHtml, public: publicEntry },
          output: {
            codeSplitting: { groups: [{ name: 'shared', test: isShared, includeDependenciesRecursively: false }] },
          },
        },
        // dist/.vite/manifest.json: which chunks each route loads, read by the JavaScript budget check
        // (scripts/check-budgets.mjs) and by the BFF for server-rendered pages. The BFF does not serve dot-folders.
        manifest: true,
      },
}));
