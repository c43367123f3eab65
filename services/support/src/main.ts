import { connectPostgres, createLogger, createMailer, NatsEventBus, onShutdownSignal } from '@ques/kit';
import { loadSupportConfig } from './config.js';
import { startSupportService } from './service.js';

const config = loadSupportConfig();
const log = createLogger('support', config.LOG_LEVEL);
const database = connectPostgres({ connectionString: config.DATABASE_URL, schema: 'support' });
const bus = await NatsEventBus.connect({
  servers: config.NATS_URL,
  name: 'support',
  namespace: config.BUS_NAMESPACE || undefined,
  log,
});
const mailer = createMailer({
  from: config.MAIL_FROM,
  log,
  smtpUrl: config.SMTP_URL,
  mailDir: config.MAIL_DIR,
});
const runtime = await startSupportService({
  database,
  bus,
  log,
  jwt: { publicKey: config.JWT_PUBLIC_KEY, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE },
  support: {
    captchaHmacKey: config.CAPTCHA_HMAC_KEY,
    captcha: { cost: config.CAPTCHA_COST, maxCounter: config.CAPTCHA_MAX_COUNTER },
    inbox: config.SUPPORT_INBOX,
    mailer,
    rateLimitPerMinute: config.SUPPORT_RATE_LIMIT_PER_MINUTE,
    trustProxy: config.TRUST_PROXY,
  },
});
const url = await runtime.listen(config.PORT, config.HOST);
log.info({ url }, 'support listening');
onShutdownSignal(log, async () => {
  await runtime.stop();
  mailer.close();
  await bus.close();
  await database.close();
});
