import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { readMailbox } from '@ques/kit';
import { eventually } from '@ques/kit/testing';

/** JSON over HTTP against a running BFF, the way the web app (or any client written against the spec) calls it. */
export async function call(base: string, method: string, path: string, body?: unknown, token?: string) {
  // Each call is a fresh browser: the web app always sends its device token, and a guest's asks without one share
  // one bucket of the guest limit (ADR 0054).
  const headers: Record<string, string> = { 'x-ques-device': `device-${randomUUID().replace(/-/g, '')}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, body: json, text, headers: res.headers };
}

/** The password the journeys sign up with. */
export const TEST_PASSWORD = 'a long enough password';

/** Signs a new account up through the BFF, as the web app does. */
export async function signup(base: string, name: string, email: string, password = TEST_PASSWORD) {
  const res = await call(base, 'POST', '/api/users', { name, email, password });
  expect(res.status).toBe(201);
  return {
    id: res.body.user.id as string,
    username: res.body.user.username as string,
    email,
    token: res.body.token as string,
    refreshToken: res.body.refreshToken as string,
  };
}

/** The verification mails sent to `email` so far (newest last). */
export const verificationMails = (mailDir: string, email: string) =>
  readMailbox(mailDir).filter((m) => m.to.includes(email) && /verify your email/i.test(m.subject));

/** The token of the `nth` (1-based) verification link mailed to `email`, once that mail is there. */
export async function verificationToken(mailDir: string, email: string, nth = 1): Promise<string> {
  const mail = await eventually(async () => verificationMails(mailDir, email)[nth - 1], 15_000);
  return /\/verify-email\?token=([\w-]+)/.exec(mail.text)![1]!;
}

/** Opens the verification link mailed to `email`, as its owner would (the web app's /verify-email page posts it). */
export async function verifyEmail(base: string, mailDir: string, email: string, nth = 1): Promise<void> {
  const token = await verificationToken(mailDir, email, nth);
  // Identity mails inside the transaction that stores the link's hash: a reader this fast may be a moment early (a
  // refused attempt spends nothing).
  await eventually(async () => (await call(base, 'POST', '/api/users/verify-email', { token })).status === 200);
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The acceptance journey of the foundation issue: signup → login → profile read/update → refresh rotation →
 * reuse detection → logout → password change → login throttling → public profile without e-mail → token forgery.
 * Returns the ids it created so callers can check events.
 */
export async function identityJourney(base: string, tag: string) {
  const email = `ada.${tag}@example.com`;
  const password = 'correct horse battery staple';

  // Signup: { user, token, message } (+ the refresh token we add)
  const signup = await call(base, 'POST', '/api/users', { name: 'Ada Lovelace', email: email.toUpperCase(), password });
  expect(signup.status).toBe(201);
  expect(signup.body.message).toBe('User registered successfully');
  expect(typeof signup.body.token).toBe('string');
  expect(typeof signup.body.refreshToken).toBe('string');
  expect(signup.body.user).toMatchObject({
    name: 'Ada Lovelace',
    email,
    username: expect.stringMatching(/^ada-lovelace(-\d+)?$/),
    bio: '',
    avatarUrl: '/images/user-image.png',
    brandColorMain: '#1A140F',
    brandColorLight: '#FAF6F2',
    archiveProfile: false,
  });
  expect(signup.body.user._id).toBe(signup.body.user.id);
  expect(signup.text).not.toMatch(/argon2|password/i);
  const userId: string = signup.body.user.id;
  const username: string = signup.body.user.username;

  // Same e-mail again → 409 with a clear message; missing fields → 400 with the field's message.
  const duplicate = await call(base, 'POST', '/api/users', { name: 'Someone Else', email, password });
  expect(duplicate.status).toBe(409);
  expect(duplicate.body.message).toBe('An account with this email already exists.');
  const missing = await call(base, 'POST', '/api/users', { name: 'X', email: 'x@example.com' });
  expect(missing.status).toBe(400);
  expect(missing.body.message).toBe('Password is required');

  // Login: { message, user, accessToken, refreshToken }
  const wrong = await call(base, 'POST', '/api/users/login', { email, password: 'nope' });
  expect(wrong.status).toBe(401);
  expect(wrong.body.message).toBe('Invalid email or password');
  const login = await call(base, 'POST', '/api/users/login', { email, password });
  expect(login.status).toBe(200);
  expect(login.body).toMatchObject({ message: 'Login successful', user: { id: userId, email } });
  let access: string = login.body.accessToken;
  let refresh: string = login.body.refreshToken;

  // Profile read and update with the bearer token; 401 without.
  expect((await call(base, 'GET', '/api/users/profile')).status).toBe(401);
  const profile = await call(base, 'GET', '/api/users/profile', undefined, access);
  expect(profile.status).toBe(200);
  expect(profile.body).toMatchObject({ id: userId, username, email });
  const updated = await call(
    base,
    'PUT',
    '/api/users/profile',
    { ...profile.body, token: access, name: 'Ada King', bio: 'Analyst of engines', brandColorMain: '#2A4B7C', brandColorLight: '#F0F4FA' },
    access,
  );
  expect(updated.status).toBe(200);
  expect(updated.body).toMatchObject({ id: userId, name: 'Ada King', bio: 'Analyst of engines', brandColorMain: '#2A4B7C', brandColorLight: '#F0F4FA' });
  const badColour = await call(base, 'PUT', '/api/users/profile', { brandColorMain: 'blue' }, access);
  expect(badColour.status).toBe(400);
  expect(badColour.body.message).toBe('Brand colours must be hex colours like #1A140F');

  // Refresh rotates: new access and new refresh token; the spent one is refused and revokes the family.
  const rotated = await call(base, 'POST', '/api/users/refresh-token', { refreshToken: refresh });
  expect(rotated.status).toBe(200);
  expect(rotated.body.refreshToken).not.toBe(refresh);
  expect(typeof rotated.body.accessToken).toBe('string');
  const replay = await call(base, 'POST', '/api/users/refresh-token', { refreshToken: refresh });
  expect(replay.status).toBe(401);
  const afterRevocation = await call(base, 'POST', '/api/users/refresh-token', { refreshToken: rotated.body.refreshToken });
  expect(afterRevocation.status).toBe(401);
  // The family's access token no longer opens the profile either.
  expect((await call(base, 'GET', '/api/users/profile', undefined, rotated.body.accessToken)).status).toBe(401);

  // Logout revokes the session.
  const again = await call(base, 'POST', '/api/users/login', { email, password });
  access = again.body.accessToken;
  refresh = again.body.refreshToken;
  const logout = await call(base, 'POST', '/api/users/logout', { refreshToken: refresh }, access);
  expect(logout.status).toBe(200);
  expect((await call(base, 'POST', '/api/users/refresh-token', { refreshToken: refresh })).status).toBe(401);
  expect((await call(base, 'GET', '/api/users/profile', undefined, access)).status).toBe(401);

  // Password change: other sessions end, the old password stops working, this session stays.
  const other = await call(base, 'POST', '/api/users/login', { email, password });
  const mine = await call(base, 'POST', '/api/users/login', { email, password });
  const emptyPassword = await call(base, 'PUT', '/api/users/profile', { newPassword: '' }, mine.body.accessToken);
  expect(emptyPassword.status).toBe(400);
  expect(emptyPassword.body.message).toBe('Please enter a new password.');
  // The current password is asked for (a stolen session alone cannot take the account over).
  const noCurrent = await call(base, 'PUT', '/api/users/profile', { newPassword: 'a brand new passphrase' }, mine.body.accessToken);
  expect(noCurrent.status).toBe(400);
  expect(noCurrent.body.message).toBe('Please enter your current password.');
  const wrongCurrent = await call(base, 'PUT', '/api/users/profile', { newPassword: 'a brand new passphrase', currentPassword: 'not it at all' }, mine.body.accessToken);
  expect(wrongCurrent.status).toBe(400);
  expect(wrongCurrent.body.message).toBe('Your current password is incorrect.');
  const changed = await call(base, 'PUT', '/api/users/profile', { newPassword: 'a brand new passphrase', currentPassword: password }, mine.body.accessToken);
  expect(changed.status).toBe(200);
  expect((await call(base, 'POST', '/api/users/refresh-token', { refreshToken: other.body.refreshToken })).status).toBe(401);
  expect((await call(base, 'GET', '/api/users/profile', undefined, mine.body.accessToken)).status).toBe(200);
  expect((await call(base, 'POST', '/api/users/login', { email, password })).status).toBe(401);
  expect((await call(base, 'POST', '/api/users/login', { email, password: 'a brand new passphrase' })).status).toBe(200);

  // Throttling: a fresh account, 10 wrong passwords → 401, the 11th → 429 (no hash computed).
  const victim = `grace.${tag}@example.com`;
  expect((await call(base, 'POST', '/api/users', { name: 'Grace Hopper', email: victim, password })).status).toBe(201);
  const statuses: number[] = [];
  for (let i = 0; i < 11; i += 1) statuses.push((await call(base, 'POST', '/api/users/login', { email: victim, password: `wrong-${i}` })).status);
  expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
  expect(statuses[10]).toBe(429);
  const blocked = await call(base, 'POST', '/api/users/login', { email: victim, password });
  expect(blocked.status).toBe(429);
  expect(blocked.body.message).toBe('Too many login attempts. Please try again later.');

  // Public profile: the spec's fields plus id and username, never the e-mail.
  const pub = await call(base, 'GET', `/api/users/public/${username}`);
  expect(pub.status).toBe(200);
  expect(pub.body).toEqual({
    _id: userId,
    id: userId,
    username,
    name: 'Ada King',
    bio: 'Analyst of engines',
    avatarUrl: '/images/user-image.png',
    brandColorMain: '#2A4B7C',
    brandColorLight: '#F0F4FA',
    archiveProfile: false,
  });
  expect(pub.text).not.toContain('@');
  expect((await call(base, 'GET', '/api/users/public/nobody-here')).status).toBe(404);

  // Forged tokens: alg none, tampered payload, garbage.
  const [h, p, s] = String(mine.body.accessToken).split('.');
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
  const none = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`;
  const tampered = `${h}.${b64url({ ...claims, sub: '00000000-0000-4000-8000-000000000000' })}.${s}`;
  for (const token of [none, tampered, 'not-a-jwt']) {
    expect((await call(base, 'GET', '/api/users/profile', undefined, token)).status).toBe(401);
  }

  return { userId, username, email };
}
