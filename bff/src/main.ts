import { fileURLToPath } from 'node:url';
import { createLogger, createMetrics, NatsEventBus, onShutdownSignal, serveMetrics } from '@ques/kit';
import { buildBff } from './app.js';
import { loadBffConfig } from './config.js';

const config = loadBffConfig();
const log = createLogger('bff', config.LOG_LEVEL);
const metrics = createMetrics('bff');
// An ephemeral watch only (pages/events.ts): the BFF consumes nothing and owns no stream.
const events = config.NATS_URL
  ? await NatsEventBus.connect({ servers: config.NATS_URL, name: 'bff', namespace: config.BUS_NAMESPACE || undefined, log })
  : undefined;
const app = await buildBff({
  log,
  metrics,
  upstreams: { identity: config.IDENTITY_URL, questions: config.QUESTIONS_URL, payments: config.PAYMENTS_URL, support: config.SUPPORT_URL },
  jwt: { publicKey: config.JWT_PUBLIC_KEY, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE },
  publicOrigin: config.PUBLIC_ORIGIN,
  webDist: config.WEB_DIST ?? fileURLToPath(new URL('../../web/dist', import.meta.url)),
  authRateLimitPerMinute: config.AUTH_RATE_LIMIT_PER_MINUTE,
  trustProxy: config.TRUST_PROXY,
  events,
});
if (events) app.addHook('onClose', () => events.close());
await app.listen({ port: config.PORT, host: config.HOST });
// Metrics on a port of their own: never reachable through the public port (and so never through /api).
const metricsServer = config.METRICS_PORT === undefined ? null : await serveMetrics(metrics, { port: config.METRICS_PORT, ...(config.METRICS_HOST ? { host: config.METRICS_HOST } : {}), token: config.METRICS_TOKEN });
if (metricsServer) log.info({ url: metricsServer.url }, 'metrics listening');
onShutdownSignal(log, async () => {
  await app.close();
  await metricsServer?.close();
});
