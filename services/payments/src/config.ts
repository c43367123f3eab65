import { loadConfig, pem, ZInternalApiToken, ZServiceEnv } from '@ques/kit';
import { z } from 'zod';

/** An empty variable (compose's `${VAR:-}`) means unset. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

export const ZPaymentsEnv = ZServiceEnv.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(4003),
  /** The web app's origin (the BFF): checkout and onboarding send people back there; test-mode pages live there too. */
  PUBLIC_ORIGIN: z.url().default('http://localhost:3000'),
  /** The questions service, for `POST /internal/questions/tipped` (internal network, not the BFF). */
  QUESTIONS_URL: z.url().default('http://127.0.0.1:4002'),
  /** Shared secret of the `/internal/*` calls, sent to questions' and required of identity's (required, ADR 0060). */
  INTERNAL_API_TOKEN: ZInternalApiToken,
  /** Both set: the real Stripe. Neither: the local test-mode provider. */
  STRIPE_SECRET_KEY: optional(z.string().min(1)),
  STRIPE_WEBHOOK_SECRET: optional(z.string().min(1)),
  /** Stripe API endpoint override (stripe-mock, a local double). */
  STRIPE_API_HOST: z.string().optional(),
  STRIPE_API_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
  /** Production refuses the test mode unless this says it is meant (a staging demo, say). */
  PAYMENTS_TEST_MODE: optional(z.enum(['true', 'false'])),
  /** Signs test-mode webhook posts (tools that post to the webhook in test mode); random per process when unset. */
  TEST_MODE_WEBHOOK_SECRET: z.string().min(16).optional(),
  /** Currency of every tip (lower-case ISO code). */
  PAYMENTS_CURRENCY: z
    .string()
    .regex(/^[a-z]{3}$/, 'PAYMENTS_CURRENCY must be a lower-case ISO code like usd')
    .default('usd'),
  /** How long a hosted checkout stays open: 31 (Stripe's minimum is 30 from its own clock) to 1440 minutes. */
  CHECKOUT_TTL_MINUTES: z.coerce.number().int().min(31).max(1440).default(31),
})
  .refine((env) => !!env.STRIPE_SECRET_KEY === !!env.STRIPE_WEBHOOK_SECRET, {
    message: 'set both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (Stripe) or neither (local test mode)',
    path: ['STRIPE_WEBHOOK_SECRET'],
  })
  .refine(
    (env) => env.NODE_ENV !== 'production' || !!env.STRIPE_SECRET_KEY || env.PAYMENTS_TEST_MODE === 'true',
    {
      message:
        'production needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (or PAYMENTS_TEST_MODE=true for a demo without real money)',
      path: ['STRIPE_SECRET_KEY'],
    },
  );

export const loadPaymentsConfig = (env: Record<string, string | undefined> = process.env) => {
  const config = loadConfig(ZPaymentsEnv, env);
  return Object.freeze({ ...config, JWT_PUBLIC_KEY: pem(config.JWT_PUBLIC_KEY) });
};
export type PaymentsConfig = ReturnType<typeof loadPaymentsConfig>;
