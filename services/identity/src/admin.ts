import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  connectEmbedded,
  connectPostgres,
  EventStore,
  migrate,
  openEmbeddedPostgres,
  operatorName,
  runServiceCli,
  type Database,
} from '@ques/kit';
import type { IdentityDB } from './db/schema.js';
import { cliGranter, Operators } from './operators/operators.js';
import { outboxAnnouncer, Sessions } from './sessions/sessions.js';
import { AvatarStore } from './users/avatars.js';
import { userCommands } from './users/commands.js';
import { createArchiveProfile, markArchiveProfile } from './users/archive.js';
import { UsersReadModel } from './users/read-models/users.js';
import { identityService } from './service.js';

const USAGE = `identity admin commands (besides migrate, rebuild-projections, republish):
  grant-operator --email <e-mail> | --username <u>    make an account a platform operator (the /ops console)
  revoke-operator --email <e-mail> | --username <u>   take the role away (ends the account's sessions)
  list-operators
  create-archive --name <name> --email <curator e-mail> [--username <u>] [--bio <text>] [--avatar <image path>] [--password <pw>]
  mark-archive --username <u> [--unmark]
env: DATABASE_URL (distributed), or DATA_DIR (embedded \`npm start\`, default .data; stop it first: its PGlite
serves one process at a time). Recorded with --operator NAME (else the OS user).`;

const OWN_COMMANDS = new Set(['create-archive', 'mark-archive', 'grant-operator', 'revoke-operator', 'list-operators']);

/** The pid file the embedded launcher keeps in its data folder while it runs (see infra/launcher). */
export const EMBEDDED_PID_FILE = 'ques.pid';

/** The pid of `npm start` serving `dataDir`, or null (its pid file is stale or absent). Another user's process counts. */
export function runningEmbedded(dataDir: string): number | null {
  const file = join(dataDir, EMBEDDED_PID_FILE);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

/**
 * Identity's database for an admin command: Postgres at DATABASE_URL (distributed), or the embedded product's PGlite
 * under DATA_DIR (default .data, as `npm start` keeps it) — only while `npm start` is not running.
 */
export async function openIdentityDatabase(env: Record<string, string | undefined>): Promise<{ database: Database<IdentityDB>; close(): Promise<void> }> {
  if (env.DATABASE_URL) {
    const database = connectPostgres<IdentityDB>({ connectionString: env.DATABASE_URL, schema: 'identity', max: 2 });
    return { database, close: () => database.close() };
  }
  // `npm run admin -w @ques/identity` runs in the workspace folder; npm's INIT_CWD is where it was typed (the root).
  const dataDir = resolve(env.INIT_CWD ?? process.cwd(), env.DATA_DIR ?? '.data');
  const pid = runningEmbedded(dataDir);
  if (pid !== null)
    throw new Error(
      `Ques is running on ${dataDir} (pid ${pid}): stop it first (its embedded database serves one process), ` +
        'or start it with OPERATOR_EMAILS=<your verified address>.',
    );
  if (!existsSync(join(dataDir, 'pg')))
    throw new Error(`No embedded database under ${dataDir}: run \`npm start\` once and sign up first (or set DATABASE_URL).`);
  const pg = await openEmbeddedPostgres(join(dataDir, 'pg'));
  const database = connectEmbedded<IdentityDB>(pg, 'identity');
  return {
    database,
    async close() {
      await database.close();
      await pg.pglite.close();
    },
  };
}

/** Identity's parts an admin command needs, on an open database. */
export function adminParts(database: Database<IdentityDB>) {
  const store = new EventStore({ database, context: 'identity', projections: identityService.projections, toIntegration: identityService.toIntegration, cipher: identityService.cipher });
  const commands = userCommands(store);
  const users = new UsersReadModel(database.db);
  const sessions = new Sessions(database.db, () => new Date(), outboxAnnouncer(database));
  return { store, commands, users, sessions, avatars: new AvatarStore(database.db), operators: new Operators({ store, commands, users, sessions }) };
}

/** Identity's admin CLI: the kit's commands plus operators and archive profiles. Returns the exit code. */
export async function runIdentityCli(argv: string[], env = process.env): Promise<number> {
  const command = argv[0];
  if (!command || !OWN_COMMANDS.has(command)) {
    if (command === '--help' || command === undefined) console.log(USAGE);
    return runServiceCli(identityService, argv, env);
  }
  const { values } = parseArgs({
    args: argv.slice(1),
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      username: { type: 'string' },
      bio: { type: 'string' },
      avatar: { type: 'string' },
      password: { type: 'string' },
      unmark: { type: 'boolean' },
      operator: { type: 'string' },
    },
  });
  let opened: Awaited<ReturnType<typeof openIdentityDatabase>>;
  try {
    opened = await openIdentityDatabase(env);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    console.error(USAGE);
    return 1;
  }
  try {
    await migrate(opened.database, identityService.migrations);
    const parts = adminParts(opened.database);
    const by = cliGranter(operatorName(values.operator));
    switch (command) {
      case 'grant-operator':
      case 'revoke-operator': {
        if (!values.email && !values.username) {
          console.error(USAGE);
          return 1;
        }
        const row = await parts.operators.find({ email: values.email, username: values.username });
        const changed = command === 'grant-operator' ? await parts.operators.grant(row.id, by) : await parts.operators.revoke(row.id, by);
        const now = command === 'grant-operator' ? 'is an operator' : 'is no longer an operator';
        console.log(`@${row.username} ${changed ? 'now ' : 'already '}${now}${command === 'grant-operator' && changed ? ' (from their next sign-in)' : ''}`);
        return 0;
      }
      case 'list-operators': {
        const rows = await parts.operators.list();
        if (rows.length === 0) console.log('no operators');
        for (const row of rows) console.log(`@${row.username}\t${row.email}`);
        return 0;
      }
      case 'create-archive': {
        if (!values.name || !values.email) {
          console.error(USAGE);
          return 1;
        }
        const created = await createArchiveProfile(parts, { name: values.name, email: values.email, username: values.username, bio: values.bio, avatarPath: values.avatar, password: values.password });
        console.log(`archive profile created: /ask/${created.username} (${created.userId})`);
        return 0;
      }
      default: {
        if (!values.username) {
          console.error(USAGE);
          return 1;
        }
        await markArchiveProfile(parts, values.username, !values.unmark);
        console.log(`${values.username} is ${values.unmark ? 'no longer' : 'now'} an archive profile`);
        return 0;
      }
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return 1;
  } finally {
    await opened.close();
  }
}
