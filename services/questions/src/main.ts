import { join } from 'node:path';
import { connectPostgres, createLogger, createMailer, NatsEventBus, onShutdownSignal } from '@ques/kit';
import { loadQuestionsConfig } from './config.js';
import { startQuestionsService } from './service.js';

const config = loadQuestionsConfig();
const log = createLogger('questions', config.LOG_LEVEL);
const database = connectPostgres({ connectionString: config.DATABASE_URL, schema: 'questions' });
const bus = await NatsEventBus.connect({
  servers: config.NATS_URL,
  name: 'questions',
  namespace: config.BUS_NAMESPACE || undefined,
  log,
});
const mailer = createMailer({
  from: config.MAIL_FROM,
  smtpUrl: config.SMTP_URL,
  mailDir: join(config.DATA_DIR, 'mail'),
  log,
});
const runtime = await startQuestionsService({
  database,
  bus,
  log,
  jwt: { publicKey: config.JWT_PUBLIC_KEY, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE },
  mailer,
  publicOrigin: config.PUBLIC_ORIGIN,
  internalToken: config.INTERNAL_API_TOKEN,
});
const url = await runtime.listen(config.PORT, config.HOST);
log.info({ url, mail: mailer.transport }, 'questions listening');
onShutdownSignal(log, async () => {
  await runtime.stop();
  mailer.close();
  await bus.close();
  await database.close();
});
