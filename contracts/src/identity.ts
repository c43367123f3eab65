import { z } from 'zod';
import { handleProblem, normalizeHandle } from './core/handle.js';
import { hasControlChars, IDENTITY_MESSAGES, LIMITS } from './core/identity.js';

// The zod-free constants and the username rule live in ./core/identity.ts (the browser imports them from there).
export * from './core/identity.js';
export * from './core/handle.js';

const trimmed = (max: number) => z.string().trim().max(max);
/** A person's name: one line of plain text (it goes into mails and pages; ADR 0054). */
export const personName = (max: number, tooLong?: string) =>
  z.string().trim().max(max, tooLong).min(1, 'Name is required').refine((v) => !hasControlChars(v), IDENTITY_MESSAGES.nameControl);
export const ZHexColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Brand colours must be hex colours like #1A140F');
const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(LIMITS.email)
  .pipe(z.email('Please enter a valid email address'));
const ZPassword = z
  .string()
  .min(LIMITS.passwordMin, `Password must be at least ${LIMITS.passwordMin} characters`)
  .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters`);

export const ZUsername = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(LIMITS.username)
  .regex(/^[a-z0-9_-]+$/, 'Usernames may contain letters, digits, hyphens and underscores');

/**
 * A public handle someone chooses (issue 28): the one rule of `core/handle.ts`, its message as the error. Lowercased
 * (A–Z only) and trimmed; anything else that is not `a-z 0-9 -` is refused, never transliterated.
 */
export const ZHandle = z
  .string({ error: 'Please choose your link.' })
  .max(200)
  .transform(normalizeHandle)
  .superRefine((value, ctx) => {
    const problem = handleProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

// ---- requests (spec §7 field names) ----

export const ZSignupRequest = z.object({
  name: personName(LIMITS.name),
  email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required').pipe(ZEmail),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').pipe(ZPassword),
  /** The chosen handle (issue 28); without it (older clients) one is derived from the name. */
  username: ZHandle.optional(),
});
export type SignupRequest = z.infer<typeof ZSignupRequest>;

export const ZLoginRequest = z.object(
  {
    email: z
      .string({ error: 'Email and password are required' })
      .trim()
      .toLowerCase()
      .min(1, 'Email and password are required')
      .max(LIMITS.email),
    password: z
      .string({ error: 'Email and password are required' })
      .min(1, 'Email and password are required')
      .max(LIMITS.passwordMax),
  },
  { error: 'The request body must be a JSON object.' },
);
export type LoginRequest = z.infer<typeof ZLoginRequest>;

export const ZRefreshTokenRequest = z.object({
  refreshToken: z.string({ error: 'Refresh token is required' }).min(1, 'Refresh token is required').max(512),
});
export type RefreshTokenRequest = z.infer<typeof ZRefreshTokenRequest>;

export const ZLogoutRequest = z.object({ refreshToken: z.string().max(512).optional() }).default({});
export type LogoutRequest = z.infer<typeof ZLogoutRequest>;

const ZCurrentPassword = z
  .string({ error: IDENTITY_MESSAGES.currentPasswordRequired })
  .max(LIMITS.passwordMax, IDENTITY_MESSAGES.currentPasswordWrong);

/**
 * `PUT /api/users/profile` with `{ newPassword, currentPassword }` changes the password (the current one is checked:
 * a stolen session alone cannot take the account over).
 */
export const ZChangePasswordRequest = z.object({
  newPassword: z.string().min(1, IDENTITY_MESSAGES.newPasswordRequired).pipe(ZPassword),
  currentPassword: ZCurrentPassword.optional(),
});
export type ChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>;

/**
 * `PUT /api/users/profile` with the full profile. The web app sends the whole stored user (minus token),
 * so unknown fields (_id, avatarUrl, stripeAccountId…) are accepted and ignored. A new `email` needs
 * `currentPassword` too.
 */
export const ZUpdateProfileRequest = z.object({
  name: personName(LIMITS.name).optional(),
  email: ZEmail.optional(),
  bio: trimmed(LIMITS.bio).optional(),
  brandColorMain: ZHexColor.optional(),
  brandColorLight: ZHexColor.optional(),
  currentPassword: ZCurrentPassword.optional(),
});
export type UpdateProfileRequest = z.infer<typeof ZUpdateProfileRequest>;

/**
 * The body of `PUT /api/users/profile` as the route validates it: a JSON object (anything else is a 400 with a clear
 * message), either shape's fields checked with their own messages, unknown fields kept for the handler to ignore.
 */
export const ZProfilePutBody = z.looseObject(
  { ...ZUpdateProfileRequest.shape, newPassword: ZChangePasswordRequest.shape.newPassword.optional() },
  { error: IDENTITY_MESSAGES.profileBodyNotObject },
);
export type ProfilePutBody = z.infer<typeof ZProfilePutBody>;

/** `POST /api/users/reset-password`: the answer never says whether the address has an account. */
export const ZResetPasswordRequest = z.object({
  email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required').pipe(ZEmail),
});
export type ResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;

/** `POST /api/users/reset-password-confirm`. */
export const ZResetPasswordConfirmRequest = z.object({
  token: z.string({ error: 'Reset failed' }).min(1, 'Reset failed').max(200),
  password: z
    .string({ error: IDENTITY_MESSAGES.newPasswordRequired })
    .min(1, IDENTITY_MESSAGES.newPasswordRequired)
    .pipe(ZPassword),
});
export type ResetPasswordConfirmRequest = z.infer<typeof ZResetPasswordConfirmRequest>;

/** `POST /api/users/verify-email`: the token from the link mailed to the address. */
export const ZVerifyEmailRequest = z.object({
  token: z
    .string({ error: IDENTITY_MESSAGES.verifyFailed })
    .min(1, IDENTITY_MESSAGES.verifyFailed)
    .max(200, IDENTITY_MESSAGES.verifyFailed),
});
export type VerifyEmailRequest = z.infer<typeof ZVerifyEmailRequest>;

export const ZPublicProfileParams = z.object({ username: z.string() });

/** `PUT /api/users/handle`: rename the public link (issue 28). */
export const ZChangeHandleRequest = z.object({ username: ZHandle });
export type ChangeHandleRequest = z.infer<typeof ZChangeHandleRequest>;
export const ZHandleParams = z.object({ handle: z.string().max(200) });
export const ZHandleAvailability = z.strictObject({
  handle: z.string(),
  available: z.boolean(),
  reason: z.string().optional(),
});
export const ZUserIdParams = z.object({ id: z.string() });
export const ZAvatarFileParams = z.object({ userId: z.string(), file: z.string() });

// ---- responses (strict: a field the handler adds without declaring it here is a test failure) ----

export const ZUser = z.strictObject({
  _id: z.string(),
  id: z.string(),
  username: z.string(),
  name: z.string(),
  email: z.string(),
  /** Whether the person opened the link mailed to `email` (false again after every change of address). */
  emailVerified: z.boolean(),
  bio: z.string(),
  avatarUrl: z.string(),
  brandColorMain: z.string(),
  brandColorLight: z.string(),
  archiveProfile: z.boolean(),
  createdAt: z.string(),
});
export type User = z.infer<typeof ZUser>;

/** Public profile: never the e-mail. `id` and `_id` are what the ask flow needs as `toUserId`. */
export const ZPublicProfile = ZUser.pick({
  _id: true,
  id: true,
  username: true,
  name: true,
  bio: true,
  avatarUrl: true,
  brandColorMain: true,
  brandColorLight: true,
  archiveProfile: true,
});
export type PublicProfile = z.infer<typeof ZPublicProfile>;

export const ZSignupResponse = z.strictObject({
  message: z.string(),
  user: ZUser,
  /** The access token, under the spec's name. */
  token: z.string(),
  accessToken: z.string(),
  refreshToken: z.string(),
});
export type SignupResponse = z.infer<typeof ZSignupResponse>;

/** `PUT /api/users/handle`: the account with its new handle, and an access token naming it. */
export const ZChangeHandleResponse = z.strictObject({
  message: z.string(),
  user: ZUser,
  accessToken: z.string(),
});
export type ChangeHandleResponse = z.infer<typeof ZChangeHandleResponse>;

export const ZLoginResponse = z.strictObject({
  message: z.string(),
  user: ZUser,
  accessToken: z.string(),
  refreshToken: z.string(),
});
export type LoginResponse = z.infer<typeof ZLoginResponse>;

export const ZRefreshTokenResponse = z.strictObject({
  accessToken: z.string(),
  /** Refresh tokens rotate: the presented one is spent, use this one next time. */
  refreshToken: z.string(),
});
export type RefreshTokenResponse = z.infer<typeof ZRefreshTokenResponse>;

export const ZMessageResponse = z.strictObject({ message: z.string() });
export type MessageResponse = z.infer<typeof ZMessageResponse>;

// ---- integration events (ques.identity.*) ----

/** Event-carried state: consumers keep a local read model of the fields they need. */
export const ZUserSnapshot = z.object({
  userId: z.uuid(),
  username: z.string(),
  name: z.string(),
  email: z.string(),
  bio: z.string(),
  avatarUrl: z.string(),
  brandColorMain: z.string(),
  brandColorLight: z.string(),
  archiveProfile: z.boolean(),
  /**
   * Whether the person proved they own `email` (opened the link identity mailed to it). False after every e-mail
   * change until the new address is confirmed. Nothing that belongs to an address (a guest's questions, mail meant
   * for its owner) may attach to an account while this is false. Events recorded before the field existed carry no
   * value: they read as false.
   */
  emailVerified: z.boolean().default(false),
});
/** A snapshot as identity publishes it; consumers parse it with `ZUserSnapshot` (so `emailVerified` is then set). */
export type UserSnapshot = z.input<typeof ZUserSnapshot>;

export const IdentityEvents = {
  UserRegistered: { version: 1, schema: ZUserSnapshot },
  ProfileUpdated: { version: 1, schema: ZUserSnapshot },
  PasswordChanged: {
    version: 1,
    schema: z.object({ userId: z.uuid(), changedAt: z.iso.datetime({ offset: true }) }),
  },
  AvatarChanged: {
    version: 1,
    schema: z.object({
      userId: z.uuid(),
      avatarUrl: z.string(),
      changedAt: z.iso.datetime({ offset: true }),
    }),
  },
  /** The person is gone: consumers erase everything personal they hold about them (name, e-mail, bio, avatar). */
  UserDeleted: {
    version: 1,
    schema: z.object({ userId: z.uuid(), deletedAt: z.iso.datetime({ offset: true }) }),
  },
  /**
   * Sessions ended (logout, password change or reset, refresh-token reuse, account deletion): every service refuses
   * their access tokens from now on (ADR 0017). Not a stored domain event: sessions are operational state, so the
   * envelope's streamId is `sessions-<userId>` and its streamVersion is always 1. At most
   * SESSIONS_PER_REVOCATION_EVENT ids per event; a user with more sessions gets several events.
   */
  SessionsRevoked: {
    version: 1,
    schema: z.object({
      userId: z.uuid(),
      sessionIds: z.array(z.uuid()).min(1).max(500),
      reason: z.string().min(1).max(100),
      revokedAt: z.iso.datetime({ offset: true }),
    }),
  },
} as const;
export const SESSIONS_PER_REVOCATION_EVENT = 500;

/**
 * A consumer's handlers for the identity events that carry a whole user snapshot (registration and every profile
 * update), each parsed with its schema and applied by `effect`: a service keeping a local copy of users takes them all.
 */
export function userSnapshotHandlers<Effect>(effect: Effect) {
  return {
    UserRegistered: { schema: IdentityEvents.UserRegistered.schema, effect },
    ProfileUpdated: { schema: IdentityEvents.ProfileUpdated.schema, effect },
  };
}
export type IdentityEventType = keyof typeof IdentityEvents;
