import { runServiceCli } from '@ques/kit';
import { supportService } from './service.js';

process.exitCode = await runServiceCli(supportService, process.argv.slice(2));
