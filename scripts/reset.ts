import { reset } from './commands/reset.ts';
import { processIO, runCommand } from './lib/cli.ts';

process.exitCode = await runCommand((io) => reset(process.argv.slice(2), io), processIO());
