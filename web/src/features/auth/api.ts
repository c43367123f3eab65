import type { LoginResponse, MessageResponse, SignupResponse, User } from '@ques/contracts/core';
import { api } from '../../lib/api';

export const login = (email: string, password: string) =>
  api.json<LoginResponse>('/api/users/login', { method: 'POST', body: { email, password }, anonymous: true });

/** `username`: the public link chosen (issue 28); without it identity derives one from the name. */
export const signup = (name: string, email: string, password: string, username?: string) =>
  // Spec §3: signup gives `user` (or the body itself is the user), `token` and `message`; read defensively.
  api.json<Partial<SignupResponse> & Partial<User>>('/api/users', {
    method: 'POST',
    body: { name, email, password, ...(username ? { username } : {}) },
    anonymous: true,
  });

export const requestPasswordReset = (email: string) =>
  api.json<Partial<MessageResponse>>('/api/users/reset-password', {
    method: 'POST',
    body: { email },
    anonymous: true,
  });

export const confirmPasswordReset = (token: string, password: string) =>
  api.json<Partial<MessageResponse>>('/api/users/reset-password-confirm', {
    method: 'POST',
    body: { token, password },
    anonymous: true,
  });

/** Opens the link mailed to an address: works signed in or not, on any device. */
export const verifyEmail = (token: string) =>
  api.json<Partial<MessageResponse>>('/api/users/verify-email', {
    method: 'POST',
    body: { token },
    anonymous: true,
  });
