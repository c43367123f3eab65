import { describe, expect, it } from 'vitest';
import { loadPaymentsConfig } from './config.js';

const base = { DATABASE_URL: 'postgres://x/y', NATS_URL: 'nats://x:4222', JWT_PUBLIC_KEY: 'key', INTERNAL_API_TOKEN: 'internal-token-0123456789' };

describe('payments config', () => {
  it('runs the local test mode without Stripe keys, with the defaults', () => {
    const config = loadPaymentsConfig(base);
    expect(config).toMatchObject({
      PORT: 4003,
      PAYMENTS_CURRENCY: 'usd',
      CHECKOUT_TTL_MINUTES: 31,
      QUESTIONS_URL: 'http://127.0.0.1:4002',
    });
    expect(config.STRIPE_SECRET_KEY).toBeUndefined();
  });

  it('needs both Stripe keys or neither', () => {
    expect(() => loadPaymentsConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(
      /STRIPE_WEBHOOK_SECRET/,
    );
    expect(() => loadPaymentsConfig({ ...base, STRIPE_WEBHOOK_SECRET: 'whsec_1' })).toThrow(
      /STRIPE_WEBHOOK_SECRET/,
    );
    expect(
      loadPaymentsConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' })
        .STRIPE_SECRET_KEY,
    ).toBe('sk_test_1');
  });

  it('refuses the test mode in production unless it is asked for explicitly', () => {
    expect(() => loadPaymentsConfig({ ...base, NODE_ENV: 'production' })).toThrow(
      /production needs STRIPE_SECRET_KEY/,
    );
    expect(
      loadPaymentsConfig({ ...base, NODE_ENV: 'production', PAYMENTS_TEST_MODE: 'true' }).PAYMENTS_TEST_MODE,
    ).toBe('true');
  });
  it('refuses to start without INTERNAL_API_TOKEN (or with a short or empty one), saying what it is (issue 33, ADR 0060)', () => {
    const { INTERNAL_API_TOKEN: _, ...without } = base;
    expect(() => loadPaymentsConfig(without)).toThrow(/INTERNAL_API_TOKEN: required: the shared secret of the \/internal\/\* calls/);
    expect(() => loadPaymentsConfig({ ...without, INTERNAL_API_TOKEN: '' })).toThrow(/INTERNAL_API_TOKEN: required/);
    expect(() => loadPaymentsConfig({ ...without, INTERNAL_API_TOKEN: 'short' })).toThrow(/INTERNAL_API_TOKEN: at least 16 characters/);
  });
});
