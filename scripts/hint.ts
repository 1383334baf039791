import { hint } from './commands/hint.ts';
import { processIO, runCommand } from './lib/cli.ts';

process.exitCode = await runCommand((io) => hint(process.argv.slice(2), io), processIO());
