import { parseArgs } from 'node:util';
import { connectPostgres, EventStore, migrate, runServiceCli } from '@ques/kit';
import type { IdentityDB } from './db/schema.js';
import { AvatarStore } from './users/avatars.js';
import { userCommands } from './users/commands.js';
import { createArchiveProfile, markArchiveProfile } from './users/archive.js';
import { UsersReadModel } from './users/read-models/users.js';
import { identityService } from './service.js';

const USAGE = `identity admin commands (besides migrate, rebuild-projections, republish):
  create-archive --name <name> --email <curator e-mail> [--username <u>] [--bio <text>] [--avatar <image path>] [--password <pw>]
  mark-archive --username <u> [--unmark]
env: DATABASE_URL`;

/** Identity's admin CLI: the kit's commands plus archive profiles. Returns the exit code. */
export async function runIdentityCli(argv: string[], env = process.env): Promise<number> {
  const command = argv[0];
  if (command !== 'create-archive' && command !== 'mark-archive') {
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
    },
  });
  if (!env.DATABASE_URL) {
    console.error(USAGE);
    return 1;
  }
  const database = connectPostgres<IdentityDB>({ connectionString: env.DATABASE_URL, schema: 'identity', max: 2 });
  try {
    await migrate(database, identityService.migrations);
    const store = new EventStore({ database, context: 'identity', projections: identityService.projections, toIntegration: identityService.toIntegration, cipher: identityService.cipher });
    const parts = { commands: userCommands(store), users: new UsersReadModel(database.db), avatars: new AvatarStore(database.db) };
    if (command === 'create-archive') {
      if (!values.name || !values.email) {
        console.error(USAGE);
        return 1;
      }
      const created = await createArchiveProfile(parts, { name: values.name, email: values.email, username: values.username, bio: values.bio, avatarPath: values.avatar, password: values.password });
      console.log(`archive profile created: /ask/${created.username} (${created.userId})`);
    } else {
      if (!values.username) {
        console.error(USAGE);
        return 1;
      }
      await markArchiveProfile(parts, values.username, !values.unmark);
      console.log(`${values.username} is ${values.unmark ? 'no longer' : 'now'} an archive profile`);
    }
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return 1;
  } finally {
    await database.close();
  }
}
