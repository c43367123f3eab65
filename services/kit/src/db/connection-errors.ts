/**
 * SQLSTATEs and socket codes of a connection that is gone or cannot be made: the server ended the session
 * (57P01 admin shutdown / terminated backend, 57P02 crash shutdown, 57P03 cannot connect now), the connection broke
 * (class 08), or the socket did.
 */
const CONNECTION_LOSS_CODES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE']);

/**
 * What `pg` says when the socket ends, and when a query is sent on a client that already failed — Kysely's ROLLBACK
 * after a lost connection is such a query, and its error replaces the original one.
 */
const CONNECTION_LOSS_MESSAGES = [/^Connection terminated/, /is not queryable$/];

/**
 * True when `error` (or its cause) means the database connection was lost or could not be made. The work did not
 * happen as far as the caller can tell and a retry may well succeed: the pool replaces broken connections.
 */
export function isConnectionLoss(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string' && CONNECTION_LOSS_CODES.has(code)) return true;
  if (typeof message === 'string' && CONNECTION_LOSS_MESSAGES.some((pattern) => pattern.test(message))) return true;
  return cause !== undefined && isConnectionLoss(cause, depth + 1);
}
