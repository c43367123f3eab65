import { startService, type ServiceDefinition, type ServiceDeps, type ServiceRuntime } from '@ques/kit';
import { identityMigrations } from './db/migrations/index.js';
import { LoginThrottle, Sessions } from './sessions/sessions.js';
import { identityIntegration } from './users/integration.js';
import { usersProjection, UsersReadModel } from './users/read-models/users.js';
import { registerUserRoutes } from './users/routes.js';

export interface IdentityExtra {
  sessions: Sessions;
  users: UsersReadModel;
}

export const identityService: ServiceDefinition<IdentityExtra> = {
  name: 'identity',
  context: 'identity',
  migrations: identityMigrations,
  projections: [usersProjection],
  toIntegration: identityIntegration,
  async setup(app, ctx) {
    const sessions = new Sessions(ctx.database.db, ctx.clock);
    const throttle = new LoginThrottle(ctx.database.db, ctx.clock);
    const users = new UsersReadModel(ctx.database.db);
    await registerUserRoutes(app, { ctx, sessions, throttle, users });
    return { sessions, users };
  },
};

/** Identity needs the private key: it is the only signer of access tokens. */
export type IdentityDeps = ServiceDeps & { jwt: ServiceDeps['jwt'] & { privateKey: string } };

export function startIdentityService(deps: IdentityDeps): Promise<ServiceRuntime<IdentityExtra>> {
  return startService(identityService, deps);
}
