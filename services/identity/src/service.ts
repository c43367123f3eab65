import { operatorAuditProjection, PersonalDataVault, signAccessToken, useRevocationCheck, type JobHandler, type ServiceDefinition } from '@ques/kit';
import { loadIdentityConfig, type IdentityConfig } from './config.js';
import { identityMigrations } from './db/migrations/index.js';
import { DataExports, httpExportSources } from './exports/data-exports.js';
import { registerExportRoutes } from './exports/routes.js';
import type { IdentityDB } from './db/schema.js';
import { ArchiveConsole } from './operators/archives.js';
import { Operators, parseOperatorEmails } from './operators/operators.js';
import { registerOperatorRoutes } from './operators/routes.js';
import { httpOnboardingSources, Onboarding, registerOnboardingRoutes } from './onboarding/onboarding.js';
import { LoginThrottle, outboxAnnouncer, Sessions } from './sessions/sessions.js';
import { SignIn } from './sessions/sign-in.js';
import { Accounts } from './users/accounts.js';
import { AvatarStore } from './users/avatars.js';
import { userCommands, type UserCommands } from './users/commands.js';
import { PERSONAL_FIELDS } from './users/domain/user.js';
import { CLAIM_MAIL_JOB, claimMailJob, ProfileClaims } from './claims/claims.js';
import { profileClaimCommands, type ProfileClaimCommands } from './claims/commands.js';
import { CLAIM_PERSONAL_FIELDS } from './claims/domain.js';
import { profileClaimsProjection, ProfileClaimsReadModel } from './claims/read-model.js';
import { registerClaimRoutes } from './claims/routes.js';
import { EmailVerification, VERIFICATION_MAIL_JOB } from './users/email-verification.js';
import { identityIntegration } from './users/integration.js';
import { PasswordResets, RESET_MAIL_JOB } from './users/password-resets.js';
import { Handles } from './users/handles.js';
import { handlesProjection, HandlesReadModel } from './users/read-models/handles.js';
import { usersProjection, UsersReadModel } from './users/read-models/users.js';
import { registerIdentityRoutes } from './users/routes.js';

/** Personal fields of user events are sealed with the person's key; deleting the account destroys it. */
export const identityVault = new PersonalDataVault({
  fields: { ...PERSONAL_FIELDS, ...CLAIM_PERSONAL_FIELDS },
  // Claim events name the claimed profile as `userId` (ADR 0034).
  subjectOf: ({ data }) => String(data.userId),
});

/** What identity builds once and its routes and jobs share. */
export interface IdentityParts {
  commands: UserCommands;
  users: UsersReadModel;
  /** Current and released public handles (issue 28). */
  handleHistory: HandlesReadModel;
  sessions: Sessions;
  throttle: LoginThrottle;
  avatars: AvatarStore;
  verification: EmailVerification;
  resets: PasswordResets;
  /** Platform operators (issue 18): grant, revoke, list. */
  operators: Operators;
  /** The data export (issue 15, ADR 0030). */
  exports: DataExports;
  /** Profile claims (issue 18, ADR 0034): commands, read model and the outcome mail job. */
  claimCommands: ProfileClaimCommands;
  claimsView: ProfileClaimsReadModel;
  claimMail: JobHandler<IdentityDB>;
  /** The owner's set-up checklist (issue 28, ADR 0056). */
  onboarding: Onboarding;
}

export const identityService: ServiceDefinition<IdentityDB, IdentityConfig, IdentityParts> = {
  name: 'identity',
  config: loadIdentityConfig,
  migrations: identityMigrations,
  // Handles first: a handle someone else holds is refused (409) before the users table's own unique index sees it.
  projections: [handlesProjection, usersProjection, operatorAuditProjection, profileClaimsProjection],
  toIntegration: identityIntegration,
  cipher: identityVault,
  // Identity checks its own session table (requireActiveUser) and tells the others through SessionsRevoked.
  ownsSessions: true,
  // The verification and password-reset e-mails.
  mail: (config) => ({ from: config.MAIL_FROM, smtpUrl: config.SMTP_URL, mailDir: config.MAIL_DIR }),
  // Identity is the only signer of access tokens.
  jwt: (config) => ({
    publicKey: config.JWT_PUBLIC_KEY,
    privateKey: config.JWT_PRIVATE_KEY,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    accessTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
  }),
  build: ({ store, db, database, clock, log, mailer, config }) => {
    const commands = userCommands(store);
    const users = new UsersReadModel(db);
    const sessions = new Sessions(db, clock, outboxAnnouncer(database));
    const mail = { clock, log, mailer, publicOrigin: config.PUBLIC_ORIGIN };
    const internal = {
      questionsUrl: config.QUESTIONS_URL,
      paymentsUrl: config.PAYMENTS_URL,
      internalToken: config.INTERNAL_API_TOKEN,
    };
    return {
      commands,
      users,
      handleHistory: new HandlesReadModel(db),
      sessions,
      throttle: new LoginThrottle(db, clock),
      avatars: new AvatarStore(db),
      verification: new EmailVerification({ db, commands, users, ...mail }),
      resets: new PasswordResets({ db, commands, users, sessions, ...mail }),
      operators: new Operators({ store, commands, users, sessions }),
      exports: new DataExports({
        db,
        users,
        ...mail,
        sources: httpExportSources(internal),
      }),
      claimCommands: profileClaimCommands(store),
      claimsView: new ProfileClaimsReadModel(db),
      claimMail: claimMailJob(mail),
      onboarding: new Onboarding({ store, users, sources: httpOnboardingSources(internal), clock, log }),
    };
  },
  async routes(app, parts, ctx) {
    // Access tokens are signed with the key the app holds (registered by the kit from `jwt` above).
    const issueAccess = (user: { id: string; username: string; operator?: boolean }, sid: string) =>
      signAccessToken(app, { sub: user.id, username: user.username, sid, typ: 'access', ...(user.operator ? { op: true as const } : {}) });
    // Identity's sessions live in its own table: the kit's guards (requireUser, requireOperator) check it here too.
    useRevocationCheck(app, { isRevoked: async (sid) => !(await parts.sessions.isActive(sid)) });
    const handles = new Handles({ ...parts, handles: parts.handleHistory, clock: ctx.clock, issueAccess });
    const accounts = new Accounts({ ...parts, handles, vault: identityVault, clock: ctx.clock, issueAccess });
    const signIn = new SignIn({ ...parts, issueAccess, operatorEmails: parseOperatorEmails(ctx.config.OPERATOR_EMAILS) });
    await registerIdentityRoutes(app, { ...parts, accounts, signIn, handles });
    registerOperatorRoutes(app, { db: ctx.db, archives: new ArchiveConsole({ store: ctx.store, commands: parts.commands, users: parts.users, avatars: parts.avatars }) });
    registerExportRoutes(app, parts);
    const claims = new ProfileClaims({ ...parts, store: ctx.store, claims: parts.claimCommands, accounts, clock: ctx.clock });
    registerClaimRoutes(app, { claims, sessions: parts.sessions });
    registerOnboardingRoutes(app, parts);
    app.addHook('onClose', async () => parts.exports.settled());
  },
  jobs: ({ verification, resets, claimMail }) => ({
    [VERIFICATION_MAIL_JOB]: verification.sendJob,
    [RESET_MAIL_JOB]: resets.sendJob,
    [CLAIM_MAIL_JOB]: claimMail,
  }),
};
