// The public profile's JavaScript before interactive, as transferred: the entry chunk, what index.html preloads,
// the /ask/:username route's chunk (ProfilePage) and every chunk those import statically (lazy imports such as the
// ask modal are left out: they load on demand). Prints raw, gzip (level 9) and brotli (quality 11) sizes, and checks
// that no built chunk carries zod (the web app imports only the zod-free `@ques/contracts/core`).
//
// Run after `npm run build -w @ques/web`:  node web/scripts/bundle-size.mjs [--route ProfilePage] [--json]
// Exits 1 when zod is found in any chunk, or when a chunk imports the entry chunk back (a cycle).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = fileURLToPath(new URL('../dist', import.meta.url));
const assets = join(dist, 'assets');
const args = process.argv.slice(2);
const routeChunk = args.includes('--route') ? args[args.indexOf('--route') + 1] : 'ProfilePage';
const asJson = args.includes('--json');

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const fromHtml = [
  ...html.matchAll(/<script type="module"[^>]*\ssrc="\/assets\/([^"]+\.js)"/g),
  ...html.matchAll(/<link rel="modulepreload"[^>]*\shref="\/assets\/([^"]+\.js)"/g),
].map((m) => m[1]);
const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
const route = files.filter((f) => f.startsWith(`${routeChunk}-`));
if (fromHtml.length === 0 || route.length !== 1) {
  console.error(`bundle-size: expected an entry script in index.html and one ${routeChunk}-*.js chunk; build first`);
  process.exit(2);
}

// Static imports only: `import{…}from"./x.js"` and `import"./x.js"`; `import(\`./x.js\`)` is lazy.
const staticImports = (code) =>
  [...code.matchAll(/(?:\bfrom\s*|\bimport\s*)["']\.\/([^"'`]+\.js)["']/g)].map((m) => m[1]);

const loaded = new Set();
const visit = (file) => {
  if (loaded.has(file)) return;
  loaded.add(file);
  for (const dep of staticImports(readFileSync(join(assets, file), 'utf8'))) visit(dep);
};
[...fromHtml, ...route].forEach(visit);

const measure = (file) => {
  const bytes = readFileSync(join(assets, file));
  return {
    file,
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }).length,
  };
};
const rows = [...loaded].map(measure);
const total = rows.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, brotli: t.brotli + r.brotli }), {
  raw: 0,
  gzip: 0,
  brotli: 0,
});

// A chunk that imports the entry back makes a cycle: its code can run before the entry's and find its imports unset.
const entry = fromHtml[0];
const backToEntry = files.filter(
  (f) => f !== entry && readFileSync(join(assets, f), 'utf8').includes(`from"./${entry}"`),
);

// zod 4 keeps these names in a minified bundle (`_zod` internals, `$ZodType`-style class names, `ZodError`).
const ZOD = /\b_zod\b|\$Zod[A-Z]\w*|\bZodError\b/;
const withZod = files.filter((f) => ZOD.test(readFileSync(join(assets, f), 'utf8')));

if (asJson) {
  console.log(JSON.stringify({ route: routeChunk, files: rows, total, zod: withZod, backToEntry }, null, 2));
} else {
  const kb = (n) => `${(n / 1000).toFixed(2)} kB`.padStart(10);
  console.log(`${routeChunk}: JavaScript before interactive (${rows.length} files)`);
  console.log(`${'file'.padEnd(40)}${'raw'.padStart(10)}${'gzip'.padStart(10)}${'brotli'.padStart(10)}`);
  for (const r of rows) console.log(`${r.file.padEnd(40)}${kb(r.raw)}${kb(r.gzip)}${kb(r.brotli)}`);
  console.log(`${'total'.padEnd(40)}${kb(total.raw)}${kb(total.gzip)}${kb(total.brotli)}`);
  console.log(withZod.length ? `zod found in: ${withZod.join(', ')}` : 'zod: not in any built chunk');
  if (backToEntry.length) console.log(`chunks importing the entry back: ${backToEntry.join(', ')}`);
}
process.exit(withZod.length || backToEntry.length ? 1 : 0);
