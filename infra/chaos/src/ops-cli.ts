import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { deploymentEnv } from './config.js';
import { rebuildAll, republishAll } from './drill/admin.js';
import { backupDatabase, currentFigures, readManifest, restoreDatabase } from './drill/backup.js';
import { differences, dollars } from './drill/figures.js';
import { deleteStreams, recreateStreams } from './drill/streams.js';

/**
 * The distributed deployment's operator commands (infra/README.md "Backup and restore", ADR 0059):
 *   backup --out DIR             pg_dump of each service schema in one snapshot, the streams' configuration, checksums
 *   restore --from DIR [--streams]  into an empty database: pg_restore, rebuild-projections, compare with the backup;
 *                                with --streams also reset the event streams to the restored stores and republish
 *   republish [--from DIR]       after a loss of the event streams: recreate them (saved configuration if given) and
 *                                republish every service's event store from its first event
 * Run with the services' DATABASE_URL, NATS_URL and BUS_NAMESPACE; `restore` before the services start again.
 */
export async function opsCommand(command: string, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      out: { type: 'string' },
      from: { type: 'string' },
      streams: { type: 'boolean', default: false },
    },
  });
  const env = deploymentEnv();
  const cwd = env.cwd;
  if (!env.databaseUrl) throw new Error('DATABASE_URL is required');
  const target = {
    databaseUrl: env.databaseUrl,
    natsUrl: env.natsUrl,
    namespace: env.namespace || undefined,
  };
  const nats = env.natsUrl ? { url: env.natsUrl, namespace: env.namespace } : undefined;
  const started = Date.now();
  const took = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

  if (command === 'backup' && values.out) {
    const dir = resolve(cwd, values.out);
    const m = await backupDatabase({ databaseUrl: env.databaseUrl, dir, nats });
    const f = m.figures;
    console.log(
      `backup in ${dir} (${took()}): ${m.schemas.map((s) => `${s.file} ${(s.bytes / 1024).toFixed(0)} KiB`).join(', ')}`,
    );
    console.log(
      `${f.questions} questions, ${f.answers} answers, ${f.tips} tips, ledger ${dollars(f.money.ledgerCents)}; ` +
        `${m.jetstream ? `${m.jetstream.streams.length} stream configurations` : 'no NATS_URL: streams not saved'}`,
    );
    return 0;
  }
  if (command === 'restore' && values.from) {
    const dir = resolve(cwd, values.from);
    const manifest = readManifest(dir);
    await restoreDatabase(env.databaseUrl, dir);
    console.log(
      `restored ${manifest.schemas.map((s) => s.schema).join(', ')} (${took()}); rebuilding the read models`,
    );
    await rebuildAll(target);
    const diff = differences(manifest.figures, await currentFigures(env.databaseUrl));
    for (const line of diff) console.log(`✗ ${line}`);
    console.log(diff.length ? 'DIFFERS from the backup' : `every table identical to the backup (${took()})`);
    if (diff.length) return 2;
    if (values.streams) {
      if (!nats || !manifest.jetstream)
        throw new Error('--streams needs NATS_URL and a backup with the streams saved');
      await deleteStreams(nats.url, nats.namespace);
      await recreateStreams(nats.url, manifest.jetstream);
      await republishAll(target);
      console.log(
        `event streams reset to the restored stores and republished (${took()}); start the services`,
      );
    }
    return 0;
  }
  if (command === 'republish') {
    if (!nats) throw new Error('NATS_URL is required');
    if (values.from) {
      const saved = readManifest(resolve(cwd, values.from)).jetstream;
      if (saved)
        console.log(
          `recreated ${(await recreateStreams(nats.url, saved)).join(', ') || 'no stream (all exist)'}`,
        );
    }
    await republishAll(target);
    console.log(`every service's event store republished (${took()}); consumers skip what they have applied`);
    return 0;
  }
  console.error('usage: backup --out DIR | restore --from DIR [--streams] | republish [--from DIR]');
  return 1;
}
