import { runServiceCli } from '@ques/kit';
import { supportCore } from './service.js';

process.exitCode = await runServiceCli(
  { ...supportCore, setup: async () => undefined },
  process.argv.slice(2),
);
