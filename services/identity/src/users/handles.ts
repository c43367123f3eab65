import {
  HANDLE_MESSAGES as H,
  handleCandidates,
  handleProblem,
  normalizeHandle,
  type ChangeHandleResponse,
  type HandleAvailability,
} from '@ques/contracts';
import { conflict, isUniqueViolation, notFound, type AppError, type Clock } from '@ques/kit';
import type { Caller } from './accounts.js';
import type { IssueAccess } from '../sessions/sign-in.js';
import type { UserCommands } from './commands.js';
import type { HandlesReadModel } from './read-models/handles.js';
import { toUser, type UsersReadModel } from './read-models/users.js';

/*
 * The public handle (issue 28): whether one is free, the default one a name leads to, and renaming. The database is
 * the judge of "free" (the handles projection, read-models/handles.ts); the reads here only give a person the answer
 * before they press the button.
 */

/** Whether an error is a refused handle (the projection's 409, or the users table's own unique index). */
export function isHandleTaken(error: unknown): boolean {
  return (error as AppError | null)?.message === H.taken || isUniqueViolation(error, 'users_username_unique');
}

export class Handles {
  constructor(
    private readonly deps: { commands: UserCommands; users: UsersReadModel; handles: HandlesReadModel; clock: Clock; issueAccess: IssueAccess },
  ) {}

  /** `GET /api/handles/:handle/availability`: never who holds it; a released handle is free to its previous owner. */
  async availability(raw: string, viewerId?: string): Promise<HandleAvailability> {
    const handle = normalizeHandle(raw).slice(0, 100);
    const problem = handleProblem(handle);
    if (problem) return { handle, available: false, reason: problem };
    const holder = await this.deps.handles.holder(handle, this.deps.clock());
    if (holder?.userId === viewerId && holder?.current) return { handle, available: false, reason: H.unchanged };
    if (holder && holder.userId !== viewerId) return { handle, available: false, reason: H.taken };
    return { handle, available: true };
  }

  /** The first free handle a name leads to (sign-up without a chosen one: older clients, the archive CLI). */
  async derive(name: string): Promise<string> {
    const candidates = handleCandidates(name);
    // Ten at a time: `mira-castell`, `-2`, … `-10` in one read, most names need one.
    for (let round = 0; round < 100; round += 1) {
      const batch: string[] = [];
      for (let i = 0; i < 10; i += 1) {
        const next = candidates.next();
        if (next.done) break;
        batch.push(next.value);
      }
      if (batch.length === 0) break;
      const held = await this.deps.handles.held(batch, this.deps.clock());
      const free = batch.find((h) => !held.has(h));
      if (free) return free;
    }
    throw conflict(H.taken);
  }

  /**
   * `PUT /api/users/handle`: the new handle, if nobody else holds it (409 otherwise, decided by the database). The
   * answer carries a new access token: the token names the username, which the other services read from it.
   */
  async rename(caller: Caller, username: string): Promise<ChangeHandleResponse> {
    const userId = caller.claims.sub;
    try {
      await this.deps.commands.handle(userId, { type: 'ChangeUsername', data: { username, now: this.deps.clock() } }, caller.metadata);
    } catch (error) {
      if (isHandleTaken(error)) throw conflict(H.taken);
      throw error;
    }
    const row = await this.deps.users.byId(userId);
    if (!row) throw notFound();
    const user = toUser(row);
    const accessToken = this.deps.issueAccess({ ...user, operator: row.operator }, caller.claims.sid);
    return { message: 'Your link is now /ask/' + user.username, user, accessToken };
  }
}
