import { loadConfig, pem, ZServiceEnv } from '@ques/kit';
import { z } from 'zod';

export const ZSupportEnv = ZServiceEnv.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(4004),
  /** Signs captcha challenges; at least 32 characters (e.g. `openssl rand -hex 32`). */
  CAPTCHA_HMAC_KEY: z.string().min(32, 'CAPTCHA_HMAC_KEY must be at least 32 characters'),
  /** PBKDF2 iterations per attempt and the largest secret counter: together, how long a browser works. */
  CAPTCHA_COST: z.coerce.number().int().min(1).max(100_000).default(1_000),
  CAPTCHA_MAX_COUNTER: z.coerce.number().int().min(4).max(1_000_000).default(2_000),
  /** Where support requests are mailed. */
  SUPPORT_INBOX: z.email().default('support@ques.localhost'),
  /** Mail: SMTP when SMTP_URL is set (compose: Mailpit), otherwise .eml files under MAIL_DIR. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_DIR: z.string().min(1).default('.data/mail'),
  MAIL_FROM: z.string().min(3).default('Ques Support <no-reply@ques.localhost>'),
  SUPPORT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(5),
  /** Whose x-forwarded-for to believe for per-client limits: none | loopback | all (only the BFF can reach us). */
  TRUST_PROXY: z.enum(['none', 'loopback', 'all']).default('loopback'),
});

export const loadSupportConfig = (env: Record<string, string | undefined> = process.env) => {
  const config = loadConfig(ZSupportEnv, env);
  return Object.freeze({ ...config, JWT_PUBLIC_KEY: pem(config.JWT_PUBLIC_KEY) });
};
export type SupportConfig = ReturnType<typeof loadSupportConfig>;
