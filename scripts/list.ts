import { list } from './commands/list.ts';
import { processIO, runCommand } from './lib/cli.ts';

process.exitCode = await runCommand((io) => list(process.argv.slice(2), io), processIO());
