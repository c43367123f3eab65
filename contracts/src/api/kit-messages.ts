/*
 * The kit's sentences that /api calls may answer with (auth, Idempotency-Key, rate limit), written out here rather
 * than imported from the kit (contracts depends on nothing) so every declaration lists them in the same words.
 */
export const NO_TOKEN = 'Not authorized, no token';
export const BAD_TOKEN = 'Not authorized, token failed';
export const IDEMPOTENCY_KEY = 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.';
/** A guest's key is scoped to their device token (ADR 0054): without one it is refused. */
export const IDEMPOTENCY_GUEST_DEVICE =
  'An Idempotency-Key from a guest needs the X-Ques-Device header (the device token): send it, or leave the key out.';
export const IDEMPOTENCY_MISMATCH =
  'This Idempotency-Key was already used for a different request. Use a new key for a new request.';
export const IDEMPOTENCY_IN_FLIGHT =
  'A request with this Idempotency-Key is still being processed. Please wait a moment, then try again.';
export const TOO_MANY = 'Too many requests. Please try again in a moment.';
