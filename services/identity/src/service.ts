import { PersonalDataVault, startService, type Mailer, type ServiceDefinition, type ServiceDeps, type ServiceRuntime } from '@ques/kit';
import { identityMigrations } from './db/migrations/index.js';
import { LoginThrottle, outboxAnnouncer, Sessions } from './sessions/sessions.js';
import { PERSONAL_FIELDS } from './users/domain/user.js';
import { identityIntegration } from './users/integration.js';
import { usersProjection, UsersReadModel } from './users/read-models/users.js';
import { registerAccountRoutes } from './users/account-routes.js';
import { registerUserRoutes } from './users/routes.js';

export interface IdentityExtra {
  sessions: Sessions;
  users: UsersReadModel;
}

/** Personal fields of user events are sealed with the person's key; deleting the account destroys it. */
export const identityVault = new PersonalDataVault({ fields: PERSONAL_FIELDS, subjectOf: ({ data }) => String(data.userId) });

export interface IdentityOptions {
  /** Sends the password-reset e-mail. */
  mailer: Mailer | null;
  /** The web app's origin, for links in e-mails. */
  publicOrigin: string;
}

export function createIdentityService(options: IdentityOptions): ServiceDefinition<IdentityExtra> {
  return {
    name: 'identity',
    context: 'identity',
    migrations: identityMigrations,
    projections: [usersProjection],
    toIntegration: identityIntegration,
    cipher: identityVault,
    // Identity checks its own session table (requireActiveUser) and tells the others through SessionsRevoked.
    ownsSessions: true,
    async setup(app, ctx) {
      const sessions = new Sessions(ctx.database.db, ctx.clock, outboxAnnouncer(ctx.database));
      const throttle = new LoginThrottle(ctx.database.db, ctx.clock);
      const users = new UsersReadModel(ctx.database.db);
      await registerUserRoutes(app, { ctx, sessions, throttle, users });
      await registerAccountRoutes(app, { ctx, sessions, users, vault: identityVault, ...options });
      return { sessions, users };
    },
  };
}

/** The definition without e-mail, for admin tooling (migrations, rebuilds) that never serves requests. */
export const identityService = createIdentityService({
  publicOrigin: 'http://localhost:3000',
  mailer: null,
});

/** Identity needs the private key: it is the only signer of access tokens. */
export type IdentityDeps = ServiceDeps & { jwt: ServiceDeps['jwt'] & { privateKey: string } };

export function startIdentityService(deps: IdentityDeps, options: IdentityOptions): Promise<ServiceRuntime<IdentityExtra>> {
  return startService(createIdentityService(options), deps);
}
