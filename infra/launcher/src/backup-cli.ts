#!/usr/bin/env node
/**
 * The embedded mode's backup and restore (infra/README.md, ADR 0059), with `npm start` stopped:
 *   npm run backup -w @ques/launcher -- --out <dir>      copy DATA_DIR (default .data) and record its checksums
 *   npm run restore -w @ques/launcher -- --from <dir>    into an empty DATA_DIR: copy back, rebuild, compare
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from '@ques/kit';
import { backupEmbedded, restoreEmbedded } from './backup.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { out: { type: 'string' }, from: { type: 'string' } },
});
// `npm run … -w @ques/launcher` runs in the workspace folder; npm's INIT_CWD is where it was typed.
const cwd = process.env.INIT_CWD ?? process.cwd();
const dataDir = resolve(cwd, process.env.DATA_DIR ?? '.data');
const log = createLogger('ques-restore', process.env.LOG_LEVEL ?? 'warn');

async function main(): Promise<number> {
  if (positionals[0] === 'backup' && values.out) {
    const manifest = await backupEmbedded({ dataDir, out: resolve(cwd, values.out) });
    const f = manifest.figures;
    console.log(
      `backup of ${dataDir} in ${resolve(cwd, values.out)}: ${Object.keys(f.tables).length} tables, ${f.questions} questions, ${f.answers} answers, ${f.tips} tips, ledger ${f.ledgerCents} cents`,
    );
    return 0;
  }
  if (positionals[0] === 'restore' && values.from) {
    const { differences, rebuilt } = await restoreEmbedded({ from: resolve(cwd, values.from), dataDir, log });
    console.log(`restored into ${dataDir}; read models rebuilt from ${JSON.stringify(rebuilt)} events`);
    for (const line of differences) console.log(`✗ ${line}`);
    console.log(differences.length ? 'DIFFERS from the backup' : 'every table identical to the backup');
    return differences.length ? 2 : 0;
  }
  console.error(
    'usage: backup-cli.js backup --out <dir> | restore --from <dir>   (env: DATA_DIR, default .data)',
  );
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`backup: ${err.message}`);
    process.exit(1);
  },
);
