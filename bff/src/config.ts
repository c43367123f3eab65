import { loadConfig, pem } from '@ques/kit';
import { z } from 'zod';

const ZBffEnv = z.object({
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_ORIGIN: z.string().url().default('http://localhost:3000'),
  IDENTITY_URL: z.string().url(),
  QUESTIONS_URL: z.string().url().optional(),
  PAYMENTS_URL: z.string().url().optional(),
  SUPPORT_URL: z.string().url().optional(),
  JWT_PUBLIC_KEY: z.string().min(1),
  JWT_ISSUER: z.string().default('ques-identity'),
  JWT_AUDIENCE: z.string().default('ques'),
  WEB_DIST: z.string().optional(),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(30),
  TRUST_PROXY: z.stringbool().default(false),
  /** The services' NATS: rendered public pages are dropped when identity or questions publish a change (optional). */
  NATS_URL: z.string().min(1).optional(),
  BUS_NAMESPACE: z.string().regex(/^[a-z0-9_]*$/).default(''),
});

export const loadBffConfig = (env = process.env) => {
  const config = loadConfig(ZBffEnv, env);
  return Object.freeze({ ...config, JWT_PUBLIC_KEY: pem(config.JWT_PUBLIC_KEY) });
};
