import { PersonalDataVault, type ServiceDefinition } from '@ques/kit';
import { loadIdentityConfig, type IdentityConfig } from './config.js';
import { identityMigrations } from './db/migrations/index.js';
import type { IdentityDB } from './db/schema.js';
import { LoginThrottle, outboxAnnouncer, Sessions } from './sessions/sessions.js';
import { registerAccountRoutes } from './users/account-routes.js';
import { AvatarStore } from './users/avatars.js';
import { userCommands, type UserCommands } from './users/commands.js';
import { PERSONAL_FIELDS } from './users/domain/user.js';
import { identityIntegration } from './users/integration.js';
import { usersProjection, UsersReadModel } from './users/read-models/users.js';
import { registerUserRoutes } from './users/routes.js';

/** Personal fields of user events are sealed with the person's key; deleting the account destroys it. */
export const identityVault = new PersonalDataVault({ fields: PERSONAL_FIELDS, subjectOf: ({ data }) => String(data.userId) });

/** What identity builds once and its routes share. */
export interface IdentityParts {
  commands: UserCommands;
  users: UsersReadModel;
  sessions: Sessions;
  throttle: LoginThrottle;
  avatars: AvatarStore;
}

export const identityService: ServiceDefinition<IdentityDB, IdentityConfig, IdentityParts> = {
  name: 'identity',
  config: loadIdentityConfig,
  migrations: identityMigrations,
  projections: [usersProjection],
  toIntegration: identityIntegration,
  cipher: identityVault,
  // Identity checks its own session table (requireActiveUser) and tells the others through SessionsRevoked.
  ownsSessions: true,
  // The password-reset e-mail.
  mail: (config) => ({ from: config.MAIL_FROM, smtpUrl: config.SMTP_URL, mailDir: config.MAIL_DIR }),
  // Identity is the only signer of access tokens.
  jwt: (config) => ({
    publicKey: config.JWT_PUBLIC_KEY,
    privateKey: config.JWT_PRIVATE_KEY,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    accessTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
  }),
  build: ({ store, db, database, clock }) => ({
    commands: userCommands(store),
    users: new UsersReadModel(db),
    sessions: new Sessions(db, clock, outboxAnnouncer(database)),
    throttle: new LoginThrottle(db, clock),
    avatars: new AvatarStore(db),
  }),
  async routes(app, parts, ctx) {
    await registerUserRoutes(app, parts, ctx);
    await registerAccountRoutes(app, parts, ctx, identityVault);
  },
};
