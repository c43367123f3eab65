import { fileURLToPath } from 'node:url';
import { createLogger, onShutdownSignal } from '@ques/kit';
import { buildBff } from './app.js';
import { loadBffConfig } from './config.js';

const config = loadBffConfig();
const log = createLogger('bff', config.LOG_LEVEL);
const app = await buildBff({
  log,
  upstreams: { identity: config.IDENTITY_URL, questions: config.QUESTIONS_URL, payments: config.PAYMENTS_URL, support: config.SUPPORT_URL },
  jwt: { publicKey: config.JWT_PUBLIC_KEY, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE },
  publicOrigin: config.PUBLIC_ORIGIN,
  webDist: config.WEB_DIST ?? fileURLToPath(new URL('../../web/dist', import.meta.url)),
  authRateLimitPerMinute: config.AUTH_RATE_LIMIT_PER_MINUTE,
  trustProxy: config.TRUST_PROXY,
});
await app.listen({ port: config.PORT, host: config.HOST });
onShutdownSignal(log, () => app.close());
