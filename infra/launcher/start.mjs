#!/usr/bin/env node
// `npm start`: installs what is missing, builds (turbo's cache makes this quick), then runs the whole product embedded.
// Plain Node only: this runs before any dependency exists.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Ques needs Node.js 20.19 or newer (this is ${process.versions.node}).`);
  process.exit(1);
}
const run = (args) => {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
  console.log('Installing dependencies (first run)…');
  run(['ci', '--no-audit', '--no-fund']);
}
// Always through turbo: a cache hit costs a second or two, and a pulled change is never run stale.
console.log('Building (cached after the first run)…');
run(['run', 'build', '--', '--output-logs=errors-only']);
process.chdir(root);
await import(join(root, 'infra', 'launcher', 'dist', 'main.js'));
