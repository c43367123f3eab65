import { connectPostgres, createLogger, NatsEventBus, onShutdownSignal } from '@ques/kit';
import { loadPaymentsConfig } from './config.js';
import { startPaymentsService, type ProviderChoice } from './service.js';
import { HttpQuestionsClient } from './tips/questions-client.js';

const config = loadPaymentsConfig();
const log = createLogger('payments', config.LOG_LEVEL);
const database = connectPostgres({ connectionString: config.DATABASE_URL, schema: 'payments' });
const bus = await NatsEventBus.connect({
  servers: config.NATS_URL,
  name: 'payments',
  namespace: config.BUS_NAMESPACE || undefined,
  log,
});
const provider: ProviderChoice =
  config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
    ? {
        kind: 'stripe',
        options: {
          secretKey: config.STRIPE_SECRET_KEY,
          webhookSecret: config.STRIPE_WEBHOOK_SECRET,
          host: config.STRIPE_API_HOST,
          port: config.STRIPE_API_PORT,
          protocol: config.STRIPE_API_PROTOCOL,
        },
      }
    : { kind: 'test', pagesBaseUrl: config.PUBLIC_ORIGIN, webhookSecret: config.TEST_MODE_WEBHOOK_SECRET };
const runtime = await startPaymentsService({
  database,
  bus,
  log,
  jwt: { publicKey: config.JWT_PUBLIC_KEY, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE },
  provider,
  questions: new HttpQuestionsClient({
    baseUrl: config.QUESTIONS_URL,
    internalToken: config.INTERNAL_API_TOKEN,
  }),
  publicOrigin: config.PUBLIC_ORIGIN,
  currency: config.PAYMENTS_CURRENCY,
  checkoutTtlMs: config.CHECKOUT_TTL_MINUTES * 60_000,
});
const url = await runtime.listen(config.PORT, config.HOST);
log.info({ url, provider: provider.kind }, 'payments listening');
onShutdownSignal(log, async () => {
  await runtime.stop();
  await bus.close();
  await database.close();
});
