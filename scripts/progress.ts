import { progress } from './commands/progress.ts';
import { processIO, runCommand } from './lib/cli.ts';

process.exitCode = await runCommand((io) => progress(process.argv.slice(2), io), processIO());
