import { loadConfig, pem } from '@ques/kit';
import { z } from 'zod';

/** One service's instances: a URL or a comma-separated list of URLs (the BFF balances them). */
const urlList = z
  .string()
  .transform((value) => value.split(',').map((u) => u.trim()).filter(Boolean))
  .pipe(z.array(z.url()).min(1, 'at least one URL'));

export const ZBffEnv = z.object({
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_ORIGIN: z.string().url().default('http://localhost:3000'),
  IDENTITY_URL: urlList,
  QUESTIONS_URL: urlList.optional(),
  PAYMENTS_URL: urlList.optional(),
  SUPPORT_URL: urlList.optional(),
  JWT_PUBLIC_KEY: z.string().min(1),
  JWT_ISSUER: z.string().default('ques-identity'),
  JWT_AUDIENCE: z.string().default('ques'),
  WEB_DIST: z.string().optional(),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(30),
  TRUST_PROXY: z.stringbool().default(false),
  /** The services' NATS: rendered public pages are dropped when identity or questions publish a change (optional). */
  NATS_URL: z.string().min(1).optional(),
  BUS_NAMESPACE: z.string().regex(/^[a-z0-9_]*$/).default(''),
  /** Port of `GET /metrics` (Prometheus), never the public one; unset: not served. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** When set, scrapes must send `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Where METRICS_PORT listens: loopback by default; any other address needs METRICS_TOKEN (ADR 0054). */
  METRICS_HOST: z.string().min(1).optional(),
});

export const loadBffConfig = (env = process.env) => {
  const config = loadConfig(ZBffEnv, env);
  return Object.freeze({ ...config, JWT_PUBLIC_KEY: pem(config.JWT_PUBLIC_KEY) });
};
