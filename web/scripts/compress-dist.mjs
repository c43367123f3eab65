// Post-build step of `npm run build -w @ques/web`: writes a brotli (quality 11) and a gzip (level 9) copy beside
// every text asset in web/dist (file.js → file.js.br, file.js.gz). The BFF serves them to browsers that accept them
// (bff/src/web); compressing once here costs seconds at build time and nothing per request (docs/adr/0015).
// A copy that would not be smaller than the original is not written.
import { readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT = /\.(?:js|mjs|css|html|svg|json|map|txt|xml|webmanifest)$/;
const dist = process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url));

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // Dot-folders (Vite's .vite/manifest.json) are for tools; nothing serves them.
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

let original = 0;
let brotli = 0;
let gzip = 0;
let count = 0;
for (const path of files(dist)) {
  // Stale copies from an earlier run (Vite empties dist, but a manual run may not).
  if (path.endsWith('.br') || path.endsWith('.gz')) {
    if (statSync(path.slice(0, -3), { throwIfNoEntry: false }) === undefined) unlinkSync(path);
    continue;
  }
  if (!TEXT.test(path)) continue;
  const bytes = readFileSync(path);
  const br = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  const gz = gzipSync(bytes, { level: 9 });
  original += bytes.length;
  count += 1;
  if (br.length < bytes.length) {
    writeFileSync(`${path}.br`, br);
    brotli += br.length;
  } else brotli += bytes.length;
  if (gz.length < bytes.length) {
    writeFileSync(`${path}.gz`, gz);
    gzip += gz.length;
  } else gzip += bytes.length;
}

const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
console.log(
  `compress-dist: ${count} text files in ${relative(process.cwd(), dist) || '.'}: ${kB(original)} → brotli ${kB(brotli)}, gzip ${kB(gzip)}`,
);
