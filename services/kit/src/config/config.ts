import { z } from 'zod';

/**
 * Parses configuration from `env` with a zod schema and freezes it. The only place a service reads process.env is its
 * own config.ts, which calls this.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined> = process.env): Readonly<z.infer<S>> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${problems}`);
  }
  return Object.freeze(parsed.data);
}

/** Settings every service shares. */
export const ZServiceEnv = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('127.0.0.1'),
  /** Required unless the caller injects the database (the embedded launcher, tests). */
  DATABASE_URL: z.string().min(1).optional(),
  /** Required unless the caller injects the bus. */
  NATS_URL: z.string().min(1).optional(),
  /** Prefix for NATS subjects and streams (isolates test runs). */
  BUS_NAMESPACE: z.string().regex(/^[a-z0-9_]*$/).default(''),
  /** Copies of each JetStream stream the service creates: 3 on a 3-node NATS cluster (R3); unset: 1 (one server). */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).optional(),
  JWT_PUBLIC_KEY: z.string().min(1),
  /** Port of `GET /metrics` (Prometheus), separate from the public one; unset: not served. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** When set, scrapes of METRICS_PORT must send `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Where METRICS_PORT listens: loopback by default; any other address needs METRICS_TOKEN (ADR 0054). */
  METRICS_HOST: z.string().min(1).optional(),
  /**
   * `false`: every statement is sent unnamed (a pooler that cannot keep named statements, such as PgBouncer in
   * transaction mode before 1.21). Unset: repeated statements are prepared once per connection (ADR 0051).
   */
  PG_PREPARE_STATEMENTS: z.enum(['true', 'false']).optional(),
  /** `off`: the read caches (ADR 0040) are not used — every list is read from the database. Unset: `on`. */
  READ_CACHE: z.enum(['on', 'off']).optional(),
  JWT_ISSUER: z.string().default('ques-identity'),
  JWT_AUDIENCE: z.string().default('ques'),
});

export type ServiceEnv = z.infer<typeof ZServiceEnv>;

/**
 * `INTERNAL_API_TOKEN` of a service that serves or makes `/internal/*` calls (identity, questions, payments): required
 * in every run mode (issue 33, ADR 0060) — a service without it refuses to start, saying so. The embedded launcher
 * makes one per start; `infra/scripts/gen-secrets.mjs` writes one for `.env`. An empty value (compose's `${VAR:-}`)
 * is a missing one.
 */
export const ZInternalApiToken = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z
    .string({
      error: 'required: the shared secret of the /internal/* calls, the same in identity, questions and payments (node infra/scripts/gen-secrets.mjs writes one)',
    })
    .min(16, 'at least 16 characters (node infra/scripts/gen-secrets.mjs writes one)'),
);

/** PEM values arrive in env with literal "\n"; restore the line breaks. */
export const pem = (value: string) => value.replace(/\\n/g, '\n');
