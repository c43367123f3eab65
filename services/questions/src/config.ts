import { loadConfig, pem, ZInternalApiToken, ZServiceEnv } from '@ques/kit';
import { z } from 'zod';

export const ZQuestionsEnv = ZServiceEnv.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(4002),
  /** The web app's origin, for links in e-mails. */
  PUBLIC_ORIGIN: z.url().default('http://localhost:3000'),
  /** SMTP server for notifications (compose: Mailpit). Unset: `.eml` files under DATA_DIR/mail. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Ques <no-reply@ques.local>'),
  DATA_DIR: z.string().default('.data'),
  /** Shared secret payments and identity send on `/internal/*` calls (required, ADR 0060). */
  INTERNAL_API_TOKEN: ZInternalApiToken,
});

export const loadQuestionsConfig = (env: Record<string, string | undefined> = process.env) => {
  const config = loadConfig(ZQuestionsEnv, env);
  return Object.freeze({ ...config, JWT_PUBLIC_KEY: pem(config.JWT_PUBLIC_KEY) });
};
export type QuestionsConfig = ReturnType<typeof loadQuestionsConfig>;
