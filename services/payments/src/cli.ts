import { runServiceCli } from '@ques/kit';
import { paymentsService } from './service.js';

process.exitCode = await runServiceCli(paymentsService, process.argv.slice(2));
