import { runServiceCli } from '@ques/kit';
import { identityService } from './service.js';

process.exitCode = await runServiceCli(identityService, process.argv.slice(2));
