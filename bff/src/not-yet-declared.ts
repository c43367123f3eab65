import { z } from 'zod';
import { defineCall, type ApiCall } from '@ques/contracts';

/*
 * TRANSITIONAL. The identity /api calls as the BFF routed them before that service declared its calls in contracts
 * (`contracts/src/api/identity.ts`; payments' are declared in `payments.ts`). A route declared there wins over its entry
 * here (see `forwardedCalls` in routes.ts); once identity's map is in `API_CALLS` and `BROWSER_CALLS`, delete this file.
 *
 * The schemas document the spec §7 payloads and reads; they validate no more than "a JSON object" (every field
 * optional, unknown fields kept) so the services keep answering bad fields in their own words, as before.
 */

const NO_TOKEN = 'Not authorized, no token';
const BAD_TOKEN = 'Not authorized, token failed';
const TOO_MANY = 'Too many requests. Please try again in a moment.';
const NOT_AN_OBJECT = 'The request body must be a JSON object.';

/** A documented field: any JSON value reaches the service, the docs say what it should be. */
const field = (description: string) => z.unknown().optional().meta({ description });
/** A JSON object with these documented fields (all optional here, others kept), or no body at all (Fastify: null). */
const body = (fields: Record<string, string>) =>
  z
    .looseObject(
      Object.fromEntries(Object.entries(fields).map(([name, text]) => [name, field(text)])),
      { error: NOT_AN_OBJECT },
    )
    .nullish();
const reads = (fields: Record<string, string>) =>
  z.looseObject(Object.fromEntries(Object.entries(fields).map(([name, text]) => [name, z.unknown().meta({ description: text })])));
const ZUserRead = z.looseObject({}).meta({
  description: 'The account: _id, id, username, name, email, bio, avatarUrl, brandColorMain, brandColorLight, archiveProfile, createdAt',
});
const message = reads({ message: 'What happened, in words to show' });

const authErrors = { 401: [NO_TOKEN, BAD_TOKEN] } as const;

export const notYetDeclared = {
  signup: defineCall({
    id: 'signup',
    method: 'POST',
    path: '/api/users',
    service: 'identity',
    summary: 'Create an account',
    auth: 'none',
    rateLimit: 'auth',
    errors: { 400: ['Name is required', 'Email is required', 'Password is required', 'Please enter a valid email address'], 409: ['An account with this email already exists.', 'This username is taken.'], 429: [TOO_MANY] },
    schema: {
      body: body({ name: 'string', email: 'string', password: 'string', username: 'string (optional)' }),
      response: { 201: reads({ message: 'string', user: 'the account', token: 'access token', accessToken: 'access token', refreshToken: 'refresh token' }) },
    },
  }),
  login: defineCall({
    id: 'login',
    method: 'POST',
    path: '/api/users/login',
    service: 'identity',
    summary: 'Sign in with e-mail and password',
    auth: 'none',
    rateLimit: 'auth',
    errors: { 400: ['Email and password are required'], 401: ['Invalid email or password'], 429: ['Too many login attempts. Please try again later.', TOO_MANY] },
    schema: {
      body: body({ email: 'string', password: 'string' }),
      response: { 200: reads({ message: 'string', user: 'the account', accessToken: 'access token', refreshToken: 'refresh token' }) },
    },
  }),
  refreshToken: defineCall({
    id: 'refreshToken',
    method: 'POST',
    path: '/api/users/refresh-token',
    service: 'identity',
    summary: 'Exchange a refresh token for a new access token (refresh tokens rotate)',
    auth: 'none',
    rateLimit: 'auth',
    errors: { 400: ['Refresh token is required'], 401: ['Invalid or expired refresh token', 'Session has ended, please log in again'], 429: [TOO_MANY] },
    schema: { body: body({ refreshToken: 'string' }), response: { 200: reads({ accessToken: 'string', refreshToken: 'string' }) } },
  }),
  logout: defineCall({
    id: 'logout',
    method: 'POST',
    path: '/api/users/logout',
    service: 'identity',
    summary: 'End the session of a refresh token',
    auth: 'none',
    schema: { body: body({ refreshToken: 'string (optional)' }), response: { 200: message } },
  }),
  getProfile: defineCall({
    id: 'getProfile',
    method: 'GET',
    path: '/api/users/profile',
    service: 'identity',
    summary: 'The signed-in account',
    auth: 'required',
    errors: { ...authErrors, 404: ['User not found'] },
    schema: { response: { 200: ZUserRead } },
  }),
  updateProfile: defineCall({
    id: 'updateProfile',
    method: 'PUT',
    path: '/api/users/profile',
    service: 'identity',
    summary: 'Change the password (`{ newPassword }`) or the profile (name, email, bio, brand colours)',
    auth: 'required',
    errors: { 400: [NOT_AN_OBJECT, 'Please enter a new password.', 'Brand colours must be hex colours like #1A140F'], ...authErrors, 409: ['An account with this email already exists.'] },
    schema: {
      body: body({ newPassword: 'string', name: 'string', email: 'string', bio: 'string', brandColorMain: '#RRGGBB', brandColorLight: '#RRGGBB' }),
      response: { 200: ZUserRead },
    },
  }),
  publicProfile: defineCall({
    id: 'getPublicProfile',
    method: 'GET',
    path: '/api/users/public/:username',
    service: 'identity',
    summary: "A profile's public fields",
    auth: 'none',
    errors: { 404: ['User not found'] },
    schema: {
      params: z.object({ username: z.string() }),
      response: { 200: reads({ name: 'string', bio: 'string', avatarUrl: 'string', brandColorMain: 'string', brandColorLight: 'string', archiveProfile: 'boolean' }) },
    },
  }),
  uploadAvatar: defineCall({
    id: 'uploadAvatar',
    method: 'POST',
    path: '/api/users/avatar',
    service: 'identity',
    summary: 'Upload an avatar (multipart field `avatar`, at most 2 MB)',
    auth: 'required',
    bodyKind: 'multipart',
    errors: { 400: ['Please choose an image to upload.'], ...authErrors, 413: ['Image too large. Please pick one under 2 MB.'] },
    schema: { body: z.object({ avatar: z.string().meta({ format: 'binary' }) }), response: { 200: ZUserRead } },
  }),
  deleteAccount: defineCall({
    id: 'deleteAccount',
    method: 'DELETE',
    path: '/api/users/profile/:id',
    service: 'identity',
    summary: 'Delete your own account',
    auth: 'required',
    errors: { ...authErrors, 403: ['You can only delete your own account.'] },
    schema: { params: z.object({ id: z.string() }), response: { 200: message } },
  }),
  resetPassword: defineCall({
    id: 'requestPasswordReset',
    method: 'POST',
    path: '/api/users/reset-password',
    service: 'identity',
    summary: 'Mail a password-reset link (the answer never says whether the address has an account)',
    auth: 'none',
    rateLimit: 'auth',
    errors: { 400: ['Email is required', 'Please enter a valid email address'], 429: [TOO_MANY] },
    schema: { body: body({ email: 'string' }), response: { 200: message } },
  }),
  resetPasswordConfirm: defineCall({
    id: 'confirmPasswordReset',
    method: 'POST',
    path: '/api/users/reset-password-confirm',
    service: 'identity',
    summary: "Set a new password with the reset link's token",
    auth: 'none',
    rateLimit: 'auth',
    errors: { 400: ['Reset failed', 'Please enter a new password.'], 429: [TOO_MANY] },
    schema: { body: body({ token: 'string', password: 'string' }), response: { 200: message } },
  }),
} as const satisfies Record<string, ApiCall>;

/* Identity's route a browser loads by address, outside the web app's JSON client (BROWSER_CALLS once declared). */
const ZFile = z.string().meta({ description: 'The image file', format: 'binary' });

export const notYetDeclaredBrowser = {
  avatarImage: defineCall({
    id: 'getAvatarImage',
    method: 'GET',
    path: '/images/avatars/:userId/:file',
    service: 'identity',
    summary: "A profile's avatar image (the `avatarUrl` of a user or public profile)",
    auth: 'none',
    errors: { 404: ['Not found'] },
    schema: {
      params: z.object({ userId: z.string().max(200), file: z.string().max(200) }),
      response: { 200: ZFile },
    },
  }),
} as const satisfies Record<string, ApiCall>;

/** The transitional list (see the top of this file). */
export const NOT_YET_DECLARED: readonly ApiCall[] = [...Object.values(notYetDeclared), ...Object.values(notYetDeclaredBrowser)];
