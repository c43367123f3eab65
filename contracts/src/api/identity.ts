import { z } from 'zod';
import { HANDLE_HOLD_DAYS, HANDLE_MESSAGES as H } from '../core/handle.js';
import { IDENTITY_MESSAGES as M, LIMITS, RESET_MAILS_PER_ADDRESS_PER_DAY, RESET_MAILS_PER_HOUR, VERIFICATION_MAILS_PER_HOUR } from '../core/identity.js';
import {
  ZAvatarFileParams,
  ZChangeHandleRequest,
  ZChangeHandleResponse,
  ZHandleAvailability,
  ZHandleParams,
  ZLoginRequest,
  ZLoginResponse,
  ZLogoutRequest,
  ZMessageResponse,
  ZProfilePutBody,
  ZPublicProfile,
  ZRefreshTokenRequest,
  ZRefreshTokenResponse,
  ZResetPasswordConfirmRequest,
  ZResetPasswordRequest,
  ZSignupRequest,
  ZSignupResponse,
  ZUser,
  ZUserIdParams,
  ZPublicProfileParams,
  ZVerifyEmailRequest,
} from '../identity.js';
import { defineCall } from './call.js';
import { BAD_TOKEN, NO_TOKEN, TOO_MANY } from './kit-messages.js';

/** What a call with a signed-in user's session can answer 401 with (the data export's calls too). */
export const AUTH_ERRORS = [NO_TOKEN, BAD_TOKEN, M.sessionEnded] as const;

/** Every way a chosen handle can be refused (issue 28), for the docs. */
const HANDLE_REFUSALS = [H.required, H.shape, H.spaces, H.lookalike, H.hyphens, H.reserved];

/** The identity context's /api calls (spec §7 "Users", plus e-mail verification). */
export const identityApi = {
  signup: defineCall({
    id: 'signup',
    method: 'POST',
    path: '/api/users',
    service: 'identity',
    summary: 'Create an account (name, email, password); signs in and mails a link to verify the address',
    description:
      'The username (public link) is the one chosen (`username`, issue 28: refused with its reason, 409 when taken) or, ' +
      'when absent, comes from the name (spec §3). The account works at once; what belongs to an ' +
      'address (guest questions asked with it, notification e-mails) follows it only once the mailed link is opened.',
    auth: 'none',
    rateLimit: 'auth',
    errors: {
      400: ['Name is required', M.nameControl, 'Email is required', 'Please enter a valid email address', 'Password is required', `Password must be at least ${LIMITS.passwordMin} characters`, ...HANDLE_REFUSALS],
      409: [M.emailTaken, H.taken],
      429: [M.tooManyMailsToAddress, TOO_MANY],
    },
    schema: { body: ZSignupRequest, response: { 201: ZSignupResponse } },
  }),
  login: defineCall({
    id: 'login',
    method: 'POST',
    path: '/api/users/login',
    service: 'identity',
    summary: 'Sign in with e-mail and password',
    auth: 'none',
    rateLimit: 'auth',
    errors: { 400: ['Email and password are required'], 401: [M.badCredentials], 429: [M.tooManyLogins, TOO_MANY] },
    schema: { body: ZLoginRequest, response: { 200: ZLoginResponse } },
  }),
  refreshToken: defineCall({
    id: 'refreshToken',
    method: 'POST',
    path: '/api/users/refresh-token',
    service: 'identity',
    summary: 'Trade a refresh token for a new access token and a new refresh token (the presented one is spent)',
    description: 'Presenting a spent refresh token again ends the whole session (reuse detection).',
    auth: 'none',
    rateLimit: 'auth',
    errors: { 400: ['Refresh token is required'], 401: [M.badRefresh], 429: [TOO_MANY] },
    schema: { body: ZRefreshTokenRequest, response: { 200: ZRefreshTokenResponse } },
  }),
  logout: defineCall({
    id: 'logout',
    method: 'POST',
    path: '/api/users/logout',
    service: 'identity',
    summary: "End the session of the bearer token and/or of the refresh token given",
    auth: 'optional',
    schema: { body: ZLogoutRequest, response: { 200: ZMessageResponse } },
  }),
  getProfile: defineCall({
    id: 'getProfile',
    method: 'GET',
    path: '/api/users/profile',
    service: 'identity',
    summary: 'The signed-in account (with its e-mail and whether it is verified)',
    auth: 'required',
    errors: { 401: [...AUTH_ERRORS], 404: [M.userNotFound] },
    schema: { response: { 200: ZUser } },
  }),
  updateProfile: defineCall({
    id: 'updateProfile',
    method: 'PUT',
    path: '/api/users/profile',
    service: 'identity',
    summary: 'Change the password (`newPassword` + `currentPassword`) or the profile (the whole stored user may be sent)',
    description:
      'With `newPassword` only the password changes, and every other session ends. Otherwise name, email, bio and ' +
      'brand colours are updated; unknown fields are ignored. A new password or a new e-mail needs `currentPassword`; ' +
      'a new e-mail is unverified until the link mailed to it is opened.',
    auth: 'required',
    errors: {
      400: [M.profileBodyNotObject, M.newPasswordRequired, M.currentPasswordRequired, M.currentPasswordWrong, 'Name is required', M.nameControl, 'Please enter a valid email address', 'Brand colours must be hex colours like #1A140F'],
      401: [...AUTH_ERRORS],
      404: [M.userNotFound],
      409: [M.emailTaken],
      429: [M.tooManyEmailChanges, M.tooManyMailsToAddress, M.tooManyMailsForAccount],
    },
    schema: { body: ZProfilePutBody, response: { 200: ZUser } },
  }),
  publicProfile: defineCall({
    id: 'getPublicProfile',
    method: 'GET',
    path: '/api/users/public/:username',
    service: 'identity',
    summary: "A profile's public fields (never the e-mail)",
    auth: 'none',
    errors: { 404: [M.userNotFound] },
    schema: { params: ZPublicProfileParams, response: { 200: ZPublicProfile } },
  }),
  handleAvailability: defineCall({
    id: 'getHandleAvailability',
    method: 'GET',
    path: '/api/handles/:handle/availability',
    service: 'identity',
    summary: 'Whether a public link (handle) can be chosen now, and why not (issue 28)',
    description:
      'For the live check under the sign-up and settings fields. Says only available or not and the reason shown to ' +
      'the person (its shape, a reserved word, taken); never who holds it. A signed-in owner asking for a handle they ' +
      'released themselves is told it is available (they may take it back).',
    auth: 'optional',
    schema: { params: ZHandleParams, response: { 200: ZHandleAvailability } },
  }),
  changeHandle: defineCall({
    id: 'changeHandle',
    method: 'PUT',
    path: '/api/users/handle',
    service: 'identity',
    summary: 'Rename your public link (issue 28); the old one redirects to the new one',
    description:
      `The old \`/ask/{handle}\` pages answer 301 to the new ones for at least ${HANDLE_HOLD_DAYS} days, and nobody else may take ` +
      'the old handle in that time (you may take it back). Two renames to the same handle at once: one wins, the ' +
      'other gets 409.',
    auth: 'required',
    errors: { 400: [...HANDLE_REFUSALS, H.unchanged], 401: [...AUTH_ERRORS], 404: [M.userNotFound], 409: [H.taken] },
    schema: { body: ZChangeHandleRequest, response: { 200: ZChangeHandleResponse } },
  }),
  uploadAvatar: defineCall({
    id: 'uploadAvatar',
    method: 'POST',
    path: '/api/users/avatar',
    service: 'identity',
    summary: 'Upload a new avatar: multipart/form-data with one file field `avatar` (an image under 2 MB)',
    description: 'Re-encoded to square WebP images without metadata; the answer is the updated user.',
    auth: 'required',
    bodyKind: 'multipart',
    errors: {
      400: [M.chooseImage, M.badUpload],
      401: [...AUTH_ERRORS],
      404: [M.userNotFound],
      413: [M.avatarTooLarge, M.tooManyPixels],
      415: [M.notAnImage, M.unreadableImage],
    },
    // The body is a stream read by the handler (never parsed as JSON): the schema only documents it.
    schema: {
      // Undefined on the service (the file is streamed, never parsed into the body); for the docs, the form's field.
      body: z.object({ avatar: z.string().meta({ format: 'binary' }) }).nullish(),
      response: { 200: ZUser },
    },
  }),
  deleteAccount: defineCall({
    id: 'deleteAccount',
    method: 'DELETE',
    path: '/api/users/profile/:id',
    service: 'identity',
    summary: 'Delete your own account and everything personal about you',
    auth: 'required',
    errors: { 401: [...AUTH_ERRORS], 403: [M.deleteOwnOnly], 404: [M.userNotFound] },
    schema: { params: ZUserIdParams, response: { 200: ZMessageResponse } },
  }),
  resetPassword: defineCall({
    id: 'requestPasswordReset',
    method: 'POST',
    path: '/api/users/reset-password',
    service: 'identity',
    summary: 'Mail a password-reset link (the answer is the same whether the address has an account or not)',
    description:
      `At most ${RESET_MAILS_PER_HOUR} reset e-mails per account per hour and ${RESET_MAILS_PER_ADDRESS_PER_DAY} per inbox (the ` +
      'address normalised: case, `+tags`, Gmail dots) per UTC day; further requests answer the same and send nothing.',
    auth: 'none',
    rateLimit: 'auth',
    errors: { 400: ['Email is required', 'Please enter a valid email address'], 429: [TOO_MANY] },
    schema: { body: ZResetPasswordRequest, response: { 200: ZMessageResponse } },
  }),
  resetPasswordConfirm: defineCall({
    id: 'confirmPasswordReset',
    method: 'POST',
    path: '/api/users/reset-password-confirm',
    service: 'identity',
    summary: 'Choose a new password with the token from the reset link (once, within 30 minutes); ends every session',
    auth: 'none',
    rateLimit: 'auth',
    errors: { 400: ['Reset failed', M.resetFailed, M.newPasswordRequired], 429: [TOO_MANY] },
    schema: { body: ZResetPasswordConfirmRequest, response: { 200: ZMessageResponse } },
  }),
  verifyEmail: defineCall({
    id: 'verifyEmail',
    method: 'POST',
    path: '/api/users/verify-email',
    service: 'identity',
    summary: 'Confirm an e-mail address with the token from the link mailed to it (once, within 24 hours)',
    description: 'No token needed: the link may be opened on any device. The address must still be the account\'s.',
    auth: 'none',
    rateLimit: 'auth',
    errors: { 400: [M.verifyFailed], 429: [TOO_MANY] },
    schema: { body: ZVerifyEmailRequest, response: { 200: ZMessageResponse } },
  }),
  resendVerification: defineCall({
    id: 'resendEmailVerification',
    method: 'POST',
    path: '/api/users/verify-email/resend',
    service: 'identity',
    summary: "Mail a new verification link to the signed-in account's address",
    description: `At most ${VERIFICATION_MAILS_PER_HOUR} verification e-mails per account per hour. Earlier links stay valid until they expire.`,
    auth: 'required',
    rateLimit: 'auth',
    errors: { 401: [...AUTH_ERRORS], 409: [M.alreadyVerified], 429: [M.tooManyVerifications, M.tooManyMailsToAddress, M.tooManyMailsForAccount, TOO_MANY] },
    // No body needed (a client may send none, null or {}).
    schema: { body: z.object({}).nullish(), response: { 200: ZMessageResponse } },
  }),
} as const;

/**
 * Identity's calls a browser makes outside /api: the avatar images (`avatarUrl` points here). Routed by the BFF like
 * /api, listed in `BROWSER_CALLS`.
 */
export const identityBrowserCalls = {
  avatarImage: defineCall({
    id: 'getAvatarImage',
    method: 'GET',
    path: '/images/avatars/:userId/:file',
    service: 'identity',
    summary: 'An avatar image (WebP), immutable: a new upload gets a new URL',
    auth: 'none',
    errors: { 404: [M.imageNotFound] },
    schema: {
      params: ZAvatarFileParams,
      response: { 200: z.unknown().describe('image/webp bytes') },
    },
  }),
} as const;
