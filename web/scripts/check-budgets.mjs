// JavaScript budgets of the built app (quality bars): what a visitor downloads before a page is interactive, as the
// BFF transfers it (the build's brotli copies, scripts/compress-dist.mjs). Reads web/dist — build first — and the
// Vite manifest to find, per route, the entry chunk and the route's lazily loaded screen with every chunk those import
// statically (the modulepreloads). Prints the figures each run; exits 1 when a route is over its budget.
// Also fails when a built chunk carries zod (the app imports only the zod-free `@ques/contracts/core`, docs/adr/0018)
// or imports the entry chunk back (a cycle: its code could run before the entry's and find its imports unset).
// Run: node web/scripts/check-budgets.mjs [distDir]   (`npm run budgets -w @ques/web`)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url));
const ENTRY = 'index.html';
/**
 * Each route: the entry it starts from, the screen module App.tsx imports lazily for it (none: only the entry), and its
 * budget in bytes (kB = 1,000 bytes), or null for a figure printed but not enforced.
 *
 * The public profile is server-rendered (docs/adr/0024): its HTML is complete, and before the visitor shows intent
 * (pointer, touch, key, focus) it loads only src/public-entry.ts. That is what a visitor downloads before interacting,
 * and what the 2 kB budget holds (the quality bar: public pages stay under 2 kB of JavaScript before interaction). The app it then imports (React, the shell, the profile's chunk) is printed as well:
 * what the first interaction costs.
 */
const ROUTES = [
  {
    name: 'public profile /ask/:username, before interaction (server-rendered)',
    entry: 'src/public-entry.ts',
    screen: null,
    budget: 2_000,
  },
  {
    name: 'public profile /ask/:username, on first interaction (the app, loaded then)',
    entry: ENTRY,
    screen: 'src/features/public-profile/ProfilePage.tsx',
    budget: null,
  },
  { name: 'admin /admin (initial)', entry: ENTRY, screen: 'src/app/AdminApp.tsx', budget: 120_000 },
  // The operator console (issue 18): its own lazily loaded bundle, checked below to be in no public or admin route.
  { name: 'operator console /ops (initial)', entry: ENTRY, screen: 'src/app/OpsApp.tsx', budget: 140_000 },
];
const CONSOLE = 'src/app/OpsApp.tsx';

const manifestPath = join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error(`check-budgets: ${manifestPath} is missing: build the web app first (npx turbo run build).`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

/** The chunk keys a module needs before it runs: itself and its static imports, transitively. */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  const chunk = manifest[key];
  if (!chunk)
    throw new Error(
      `check-budgets: the Vite manifest has no "${key}" (renamed? update ROUTES in ${import.meta.url})`,
    );
  seen.add(key);
  for (const imported of chunk.imports ?? []) closure(imported, seen);
  return seen;
}

/** Bytes the BFF sends for a file to a browser that accepts brotli (or gzip): the copy when the build made one. */
function transferred(file) {
  const path = join(dist, file);
  const size = (copy) => (existsSync(copy) ? statSync(copy).size : statSync(path).size);
  return { raw: statSync(path).size, br: size(`${path}.br`), gz: size(`${path}.gz`) };
}

const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
let over = false;
for (const route of ROUTES) {
  const keys = route.screen ? closure(route.screen, closure(route.entry)) : closure(route.entry);
  const files = [...keys].map((key) => manifest[key].file).filter((file) => file.endsWith('.js'));
  const sizes = files.map((file) => ({ file, ...transferred(file) }));
  const sum = (key) => sizes.reduce((total, s) => total + s[key], 0);
  const total = sum('br');
  const ok = route.budget === null || total <= route.budget;
  over ||= !ok;
  const verdict = route.budget === null ? 'INFO' : ok ? 'PASS' : 'MISS';
  const budget = route.budget === null ? 'not a budget' : `budget ${kB(route.budget)}`;
  console.log(
    `${verdict}  ${route.name}: ${kB(total)} brotli (${budget}), ${kB(sum('gz'))} gzip, ` +
      `${kB(sum('raw'))} raw, ${files.length} chunks`,
  );
  for (const s of sizes.sort((a, b) => b.br - a.br))
    console.log(`        ${kB(s.br).padStart(9)}  (${kB(s.gz)} gzip, ${kB(s.raw)} raw)  ${s.file}`);
}

// The console's own chunks (its screen and its sections: src/app/Ops*, src/features/ops/) must not be among what the
// public or admin routes load; the console may reuse theirs.
const consoleFiles = new Set(
  Object.entries(manifest)
    .filter(([key]) => /^src\/app\/Ops|^src\/features\/ops\//.test(key))
    .map(([, chunk]) => chunk.file),
);
const leaked = ROUTES.filter((route) => route.screen !== CONSOLE).flatMap((route) => {
  const keys = route.screen ? closure(route.screen, closure(route.entry)) : closure(route.entry);
  return [...keys].map((key) => manifest[key].file).filter((file) => consoleFiles.has(file)).map((file) => `${file} (${route.name})`);
});
console.log(
  leaked.length
    ? `FAIL  operator console code in other bundles: ${leaked.join(', ')}`
    : `PASS  the operator console's ${consoleFiles.size} chunks are in no public or admin bundle`,
);
over ||= leaked.length > 0;

const scripts = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js'));
const code = (file) => readFileSync(join(dist, 'assets', file), 'utf8');
// zod 4 keeps these names in a minified bundle (`_zod` internals, `$ZodType`-style class names, `ZodError`).
const withZod = scripts.filter((file) => /\b_zod\b|\$Zod[A-Z]\w*|\bZodError\b/.test(code(file)));
const entry = manifest[ENTRY].file.replace(/^assets\//, '');
const backToEntry = scripts.filter((file) => file !== entry && code(file).includes(`from"./${entry}"`));
console.log(withZod.length ? `FAIL  zod in ${withZod.join(', ')}` : 'PASS  no zod in any chunk');
console.log(backToEntry.length ? `FAIL  importing the entry back: ${backToEntry.join(', ')}` : 'PASS  no chunk imports the entry');
process.exitCode = over || withZod.length || backToEntry.length ? 1 : 0;
