import { runServiceCli } from '@ques/kit';
import { questionsService } from './service.js';

process.exitCode = await runServiceCli(questionsService, process.argv.slice(2));
