import { runService } from '@ques/kit';
import { supportService } from './service.js';

// Config from the environment (config.ts), Postgres and NATS (waited for), graceful shutdown on SIGTERM/SIGINT.
await runService(supportService);
