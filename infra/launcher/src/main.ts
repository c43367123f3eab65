import { setFlagsFromString } from 'node:v8';
import { createLogger, onShutdownSignal } from '@ques/kit';
import { startEmbedded } from './embedded.js';

// The embedded Postgres is an 8.9 MB WebAssembly module. V8 compiles it at once with its baseline compiler and then
// recompiles the hot functions with the optimising one, keeping both codes and the compiler's working memory: about
// 90 MB more resident memory under load for a database whose work here is small queries. Set before PGlite compiles
// it (startEmbedded); `QUES_WASM_TIER_UP=1` turns tier-up back on (docs/adr/0026).
if (process.env.QUES_WASM_TIER_UP !== '1') setFlagsFromString('--no-wasm-tier-up');

// The launcher is the embedded product's config.ts: the only reader of process.env here.
const port = Number(process.env.PORT ?? 3000);
const log = createLogger('ques', process.env.LOG_LEVEL ?? 'info');
const product = await startEmbedded({
  port,
  host: process.env.HOST ?? '127.0.0.1',
  dataDir: process.env.DATA_DIR ?? '.data',
  log,
  env: { STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: process.env.STRIPE_WEBHOOK_SECRET, SUPPORT_INBOX: process.env.SUPPORT_INBOX },
});
log.info({ url: product.url }, 'Ques is running');
console.log(`\n  Ques is running at ${product.url}\n  (embedded mode: data in ${process.env.DATA_DIR ?? '.data'}, test-mode payments, e-mail to files)\n`);
onShutdownSignal(log, () => product.stop());
