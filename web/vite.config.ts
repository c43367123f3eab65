import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const API_TARGET = 'http://127.0.0.1:3000';
const publicDir = fileURLToPath(new URL('./public', import.meta.url));

/**
 * The public origin of the static default metadata in index.html (canonical, og:url, og:image), from the deployment's
 * configuration; never a hard-coded domain. Without QUES_SITE_ORIGIN those URLs stay relative to the page: the BFF
 * serves the block rewritten on its configured PUBLIC_ORIGIN, and the app reads that origin back (src/lib/head.ts).
 */
const SITE_ORIGIN = (process.env.QUES_SITE_ORIGIN ?? '').replace(/\/+$/, '');

function siteOrigin(): Plugin {
  return {
    name: 'ques-site-origin',
    transformIndexHtml: (html) => html.replaceAll('__SITE_ORIGIN__', SITE_ORIGIN),
  };
}

/**
 * react-router's module-level `React.forwardRef(...)` calls carry no pure annotation and every component gets a
 * `X.displayName = "X"` assignment, so unused components (Form, its own Link/NavLink, prefetching) survive
 * tree-shaking. Marking the calls pure and dropping the names (only seen in React DevTools) in the production
 * build keeps the public profile inside its JavaScript budget.
 */
function treeShakeReactRouter(): Plugin {
  return {
    name: 'ques-tree-shake-react-router',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]react-router[\\/]dist[\\/]/.test(id)) return null;
      const shaken = code
        .replace(/^[\w$]+\.displayName = "[^"]*";$/gm, '')
        .replace(/= (React\d*\.(?:forwardRef|memo|createContext)\()/g, '= /* @__PURE__ */ $1');
      return { code: shaken, map: null };
    },
  };
}

export default defineConfig({
  plugins: [react(), siteOrigin(), treeShakeReactRouter()],
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
  build: {
    target: 'es2022',
    sourcemap: true,
    // Every browser that runs es2022 modules supports <link rel=modulepreload>; the polyfill is dead weight.
    modulePreload: { polyfill: false },
  },
});
