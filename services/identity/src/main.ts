import { connectPostgres, createLogger, createMailer, NatsEventBus, onShutdownSignal } from '@ques/kit';
import { loadIdentityConfig } from './config.js';
import { startIdentityService } from './service.js';

const config = loadIdentityConfig();
const log = createLogger('identity', config.LOG_LEVEL);
const database = connectPostgres({ connectionString: config.DATABASE_URL, schema: 'identity' });
const bus = await NatsEventBus.connect({ servers: config.NATS_URL, name: 'identity', namespace: config.BUS_NAMESPACE || undefined, log });
const mailer = createMailer({ from: config.MAIL_FROM, log, smtpUrl: config.SMTP_URL, mailDir: config.MAIL_DIR });
const runtime = await startIdentityService({
  database,
  bus,
  log,
  jwt: {
    publicKey: config.JWT_PUBLIC_KEY,
    privateKey: config.JWT_PRIVATE_KEY,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    accessTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
  },
}, { publicOrigin: config.PUBLIC_ORIGIN, mailer });
const url = await runtime.listen(config.PORT, config.HOST);
log.info({ url }, 'identity listening');
onShutdownSignal(log, async () => {
  await runtime.stop();
  mailer.close();
  await bus.close();
  await database.close();
});
