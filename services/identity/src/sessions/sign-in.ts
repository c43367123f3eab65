import { IDENTITY_MESSAGES as M, type LoginRequest, type LoginResponse, type RefreshTokenResponse } from '@ques/contracts';
import { tooManyRequests, unauthorized, type AccessClaims } from '@ques/kit';
import type { UsersReadModel } from '../users/read-models/users.js';
import { toUser } from '../users/read-models/users.js';
import { withConfiguredOperator, type Operators } from '../operators/operators.js';
import { verifyPassword } from './passwords.js';
import type { LoginThrottle, Sessions } from './sessions.js';

/**
 * Signs an access token for a user's session (the routes bind it to the Fastify app holding the key); an operator's
 * token carries `op: true` (issue 18).
 */
export type IssueAccess = (user: { id: string; username: string; operator?: boolean }, sessionId: string) => string;

export interface SignInDeps {
  users: UsersReadModel;
  sessions: Sessions;
  throttle: LoginThrottle;
  issueAccess: IssueAccess;
  /** `OPERATOR_EMAILS` (issue 18): verified addresses made operators when they sign in. */
  operators?: Operators;
  operatorEmails?: ReadonlySet<string>;
}

/** Login, token refresh and logout: sessions begin, rotate and end here. */
export class SignIn {
  constructor(private readonly deps: SignInDeps) {}

  async login(body: LoginRequest): Promise<LoginResponse> {
    const { users, sessions, throttle, issueAccess } = this.deps;
    if (!(await throttle.reserve(body.email))) throw tooManyRequests(M.tooManyLogins);
    const row = await users.byEmail(body.email);
    const ok = await verifyPassword(row?.password_hash ?? null, body.password);
    if (!row || !ok) throw unauthorized(M.badCredentials);
    await throttle.clear(body.email);
    const session = await sessions.start(row.id);
    const signed = await this.configured(row);
    return { message: 'Login successful', user: toUser(row), accessToken: issueAccess(signed, session.familyId), refreshToken: session.refreshToken };
  }

  async refresh(refreshToken: string, correlationId: string): Promise<RefreshTokenResponse> {
    const { users, sessions, issueAccess } = this.deps;
    const issued = await sessions.rotate(refreshToken, correlationId);
    const row = await users.byId(issued.userId);
    if (!row) {
      await sessions.revokeFamily(issued.familyId, 'user gone', { correlationId });
      throw unauthorized(M.badRefresh);
    }
    return { accessToken: issueAccess(await this.configured(row), issued.familyId), refreshToken: issued.refreshToken };
  }

  /**
   * Issue 28: the operator role takes effect at the account's next request, without signing out. The web app reads
   * the profile at every start; a token whose `op` claim no longer says what the account is (granted by the CLI or
   * `OPERATOR_EMAILS` after it was issued) is refused with a 401, which the app answers by refreshing — and the new
   * token carries the role. (A revoked role already ends the sessions.)
   */
  async assertCurrentRole(claims: AccessClaims): Promise<void> {
    const row = await this.deps.users.byId(claims.sub);
    if (!row) return;
    const current = await this.configured(row);
    if (Boolean(current.operator) !== (claims.op === true)) throw unauthorized('Not authorized, token failed');
  }

  private configured(row: Parameters<typeof toUser>[0]) {
    return withConfiguredOperator(this.deps.operators ?? null, this.deps.operatorEmails ?? new Set(), row);
  }

  /** Ends the bearer token's session and the refresh token's (either may be missing or already ended). */
  async logout(claims: AccessClaims | null, refreshToken: string | undefined, correlationId: string): Promise<{ message: string }> {
    const { sessions } = this.deps;
    if (claims) await sessions.revokeFamily(claims.sid, 'logout', { correlationId });
    if (refreshToken) await sessions.revokeByToken(refreshToken, 'logout', { correlationId });
    return { message: 'Logged out' };
  }
}
