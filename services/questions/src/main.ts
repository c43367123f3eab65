import { runService } from '@ques/kit';
import { questionsService } from './service.js';

// Config from the environment (config.ts), Postgres and NATS (waited for), graceful shutdown on SIGTERM/SIGINT.
await runService(questionsService);
