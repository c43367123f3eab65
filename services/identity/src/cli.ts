import { runIdentityCli } from './admin.js';

process.exitCode = await runIdentityCli(process.argv.slice(2));
