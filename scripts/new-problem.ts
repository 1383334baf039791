import { newProblem } from './commands/new-problem.ts';
import { processIO, runCommand } from './lib/cli.ts';

process.exitCode = await runCommand((io) => newProblem(process.argv.slice(2), io), processIO());
