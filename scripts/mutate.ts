import { mutate } from './commands/mutate.ts';
import { processIO, runCommand } from './lib/cli.ts';

process.exitCode = await runCommand((io) => mutate(process.argv.slice(2), io), processIO());
