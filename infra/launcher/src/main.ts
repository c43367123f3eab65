import { createLogger, onShutdownSignal } from '@ques/kit';
import { startEmbedded } from './embedded.js';

// The launcher's entry points (this file and backup-cli.ts) are the embedded product's config.ts: the only readers of process.env here.
const port = Number(process.env.PORT ?? 3000);
const log = createLogger('ques', process.env.LOG_LEVEL ?? 'info');
const product = await startEmbedded({
  port,
  host: process.env.HOST ?? '127.0.0.1',
  dataDir: process.env.DATA_DIR ?? '.data',
  log,
  env: { STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: process.env.STRIPE_WEBHOOK_SECRET, SUPPORT_INBOX: process.env.SUPPORT_INBOX, OPERATOR_EMAILS: process.env.OPERATOR_EMAILS },
});
log.info({ url: product.url }, 'Ques is running');
console.log(`\n  Ques is running at ${product.url}\n  (embedded mode: data in ${process.env.DATA_DIR ?? '.data'}, test-mode payments, e-mail to files)\n`);
onShutdownSignal(log, () => product.stop());
