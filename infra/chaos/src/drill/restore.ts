import { rebuildAll, republishAll } from './admin.js';
import { backupDatabase, currentFigures, restoreDatabase, type BackupManifest } from './backup.js';
import {
  fail,
  figure,
  loadIsServing,
  moneyDisagreements,
  sinceNow,
  startLoad,
  step,
  verdict,
  type DrillContext,
} from './context.js';
import { combinedChecksum, differences, dollars, SERVICE_SCHEMAS, type DataFigures } from './figures.js';
import { deleteStreams, recreateStreams } from './streams.js';
import { recreateDatabase, withClient } from '../topology/postgres.js';

const DRILL = 'restore' as const;

const money = (f: DataFigures) =>
  `ledger ${dollars(f.money.ledgerCents)}, fee ${dollars(f.money.feeCents)}, net ${dollars(f.money.netCents)}; tips ` +
  Object.entries(f.money.tips)
    .map(([status, t]) => `${status} ${t.count} ${dollars(t.cents)}`)
    .join(', ');

/** One line per schema: events, read models (rows, checksum) and the other tables (rows, checksum). */
function schemaLines(f: DataFigures, models: Record<string, string[]>): string[] {
  return SERVICE_SCHEMAS.map((schema) => {
    const keys = Object.keys(f.tables).filter((k) => k.startsWith(`${schema}.`));
    const read = keys.filter((k) => models[schema]?.includes(k.slice(schema.length + 1)));
    const rm = combinedChecksum(f, read);
    const rest = combinedChecksum(
      f,
      keys.filter((k) => !read.includes(k)),
    );
    return `${schema}: ${f.events[schema]?.count ?? 0} events, read models ${rm.rows} rows ${rm.checksum.slice(0, 12)}, other tables ${rest.rows} rows ${rest.checksum.slice(0, 12)}`;
  });
}

/**
 * The backup-and-restore drill (distributed mode): a backup taken under load, the database dropped, a fresh one
 * restored from the dumps, the read models rebuilt, every table compared with the checksums the backup recorded,
 * then the streams reset to the restored stores (deleted, recreated from the saved configuration, republished) and
 * the services started again and put under load.
 */
export async function restoreDrill(ctx: DrillContext): Promise<void> {
  const { topology } = ctx;
  const db = topology.database!;
  const target = { databaseUrl: db.url, natsUrl: topology.natsUrl, namespace: topology.namespace };

  const load = startLoad(ctx, 'backup');
  await loadIsServing(ctx, load);
  const manifest: BackupManifest = await step(
    ctx,
    DRILL,
    'backup under load (pg_dump per schema, one snapshot)',
    () =>
      backupDatabase({
        databaseUrl: db.url,
        dir: ctx.backupDir,
        nats: { url: topology.natsUrl, namespace: topology.namespace },
      }),
    (m) =>
      `${m.schemas.map((s) => `${s.schema} ${(s.bytes / 1024).toFixed(0)} KiB`).join(', ')}; ${m.jetstream?.streams.length ?? 0} stream configs, ${m.jetstream?.consumers.length ?? 0} durables`,
  );
  await load.finish();
  const before = manifest.figures;
  const models = Object.fromEntries(manifest.schemas.map((s) => [s.schema, s.readModelsLeftOut]));
  figure(
    ctx,
    DRILL,
    'at the backup',
    `${before.questions} questions, ${before.answers} answers, ${before.tips} tips; ${money(before)}`,
  );
  for (const line of schemaLines(before, models)) figure(ctx, DRILL, 'at the backup', line);

  await step(ctx, DRILL, 'services stopped', async () => {
    for (const name of topology.names()) await topology.signal(name, 'SIGTERM');
  });
  await step(ctx, DRILL, 'database dropped and created empty', () => recreateDatabase(db));
  await step(ctx, DRILL, 'restore (pg_restore per schema)', () => restoreDatabase(db.url, ctx.backupDir));
  // The control: without the rebuild, the read models are empty and the comparison says so.
  const unbuilt = differences(before, await currentFigures(db.url));
  figure(
    ctx,
    DRILL,
    'restored, not rebuilt',
    `${unbuilt.length} tables differ from the backup (the read models, left out of it)`,
  );
  if (unbuilt.length === 0)
    fail(
      ctx,
      'restore: the comparison found nothing to rebuild; it cannot tell a rebuilt read model from a missing one',
    );
  await step(ctx, DRILL, 'rebuild-projections (every service)', () => rebuildAll(target));
  const after = await currentFigures(db.url);
  figure(
    ctx,
    DRILL,
    'after restore + rebuild',
    `${after.questions} questions, ${after.answers} answers, ${after.tips} tips; ${money(after)}`,
  );
  for (const line of schemaLines(after, models)) figure(ctx, DRILL, 'after restore + rebuild', line);
  // Asks the clients were told about after the backup's instant are gone with the restore, by design: say how many.
  const accepted = load.records
    .filter((r) => r.outcome === 'accepted' && r.questionId)
    .map((r) => r.questionId!);
  const kept = await withClient(db.url, async (c) =>
    Number(
      (
        await c.query<{ n: string }>(
          `SELECT count(*)::text AS n FROM questions.questions WHERE id = ANY($1::uuid[]) AND lifecycle <> 'awaiting_payment'`,
          [accepted],
        )
      ).rows[0]!.n,
    ),
  );
  figure(
    ctx,
    DRILL,
    'asks of the backup phase',
    `${accepted.length} accepted: ${kept} visible at the backup's instant, ${accepted.length - kept} not ` +
      '(accepted after it, gone with the restore by design; or a payment in flight at it, settled by the republish)',
  );
  const diff = differences(before, after);
  figure(
    ctx,
    DRILL,
    'compared with the backup',
    diff.length ? diff.join('; ') : `all ${Object.keys(after.tables).length} tables identical`,
  );
  if (diff.length) fail(ctx, `restore: differs from the backup: ${diff.join('; ')}`);

  // The streams hold events the restored stores no longer have: reset them to the stores.
  await step(
    ctx,
    DRILL,
    'streams reset to the restored stores',
    async () => {
      await deleteStreams(topology.natsUrl, topology.namespace);
      return manifest.jetstream ? recreateStreams(topology.natsUrl, manifest.jetstream) : [];
    },
    (created) => `${created.length} streams recreated from the saved configuration`,
  );
  await step(ctx, DRILL, 'services started', async () => {
    for (const name of topology.names()) await topology.restart(name);
  });
  await step(ctx, DRILL, 'republish (all services, from position 0)', () => republishAll(target));

  const since = await sinceNow(ctx);
  const afterLoad = startLoad(ctx, 'after-restore');
  await loadIsServing(ctx, afterLoad);
  await afterLoad.finish();
  await verdict(ctx, DRILL, 'after-restore', afterLoad.records, since);
  const disagreements = await moneyDisagreements(db.url);
  figure(ctx, DRILL, 'money across services', JSON.stringify(disagreements));
  if (disagreements.disagree || disagreements.answeredNotCaptured || disagreements.doubleBooked)
    fail(ctx, `restore: money views disagree after the restart ${JSON.stringify(disagreements)}`);
}
