import { loadConfig, pem, ZInternalApiToken, ZServiceEnv } from '@ques/kit';
import { z } from 'zod';

export const ZIdentityEnv = ZServiceEnv.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(4001),
  JWT_PRIVATE_KEY: z.string().min(1),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(900).default(900),
  PUBLIC_ORIGIN: z.string().url().default('http://localhost:3000'),
  MAIL_FROM: z.string().default('Ques <no-reply@ques.app>'),
  /** smtp://host:port (compose: Mailpit); without it, e-mails are written as .eml files under MAIL_DIR. */
  SMTP_URL: z.string().optional(),
  MAIL_DIR: z.string().default('.data/mail'),
  /**
   * Platform operators (issue 18): comma-separated e-mail addresses whose accounts become operators once the address
   * is verified (at their next sign-in or token refresh). The CLI's `grant-operator` is the other way.
   */
  OPERATOR_EMAILS: z.string().default(''),
  /** The data export (issue 15) reads questions' and payments' parts over their internal calls (not the BFF). */
  QUESTIONS_URL: z.url().default('http://127.0.0.1:4002'),
  PAYMENTS_URL: z.url().default('http://127.0.0.1:4003'),
  /** Shared secret sent to the other services' `/internal/*` calls as `x-internal-token` (required, ADR 0060). */
  INTERNAL_API_TOKEN: ZInternalApiToken,
});

export const loadIdentityConfig = (env: Record<string, string | undefined> = process.env) => {
  const config = loadConfig(ZIdentityEnv, env);
  return Object.freeze({ ...config, JWT_PRIVATE_KEY: pem(config.JWT_PRIVATE_KEY), JWT_PUBLIC_KEY: pem(config.JWT_PUBLIC_KEY) });
};
export type IdentityConfig = ReturnType<typeof loadIdentityConfig>;
