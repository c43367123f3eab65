import { ERROR_STATUS, type ErrorCode } from '@ques/contracts';

/**
 * The one error type services throw on purpose. Its message is shown to people (spec wording), its code picks the
 * HTTP status. Pure: domain files may throw it.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) => new AppError('BAD_REQUEST', message, details);
export const unauthorized = (message = 'Unauthorized') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message = 'Forbidden') => new AppError('FORBIDDEN', message);
export const notFound = (message = 'Not found') => new AppError('NOT_FOUND', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const unprocessable = (message: string) => new AppError('UNPROCESSABLE', message);
export const tooManyRequests = (message = 'Too many requests. Please try again later.') =>
  new AppError('TOO_MANY_REQUESTS', message);

/** Two writers raced on one stream; the loser gets this (HTTP 409). */
export class ConcurrencyError extends AppError {
  constructor(
    readonly streamId: string,
    readonly expectedVersion: number,
  ) {
    super('CONFLICT', 'This item was changed by someone else at the same time. Please reload and try again.', {
      streamId,
      expectedVersion,
    });
    this.name = 'ConcurrencyError';
  }
}
