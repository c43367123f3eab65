import { ApiError } from '../../lib/api';

/** A client error's own message is more useful than the generic text; server faults get the generic text. */
export const messageFor = (err: unknown, generic: string) =>
  err instanceof ApiError && err.status < 500 && err.status !== 401 && err.serverMessage ? err.serverMessage : generic;
