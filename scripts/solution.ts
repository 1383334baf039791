import { solution } from './commands/solution.ts';
import { processIO, runCommand } from './lib/cli.ts';

process.exitCode = await runCommand((io) => solution(process.argv.slice(2), io), processIO());
