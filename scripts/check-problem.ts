import { checkProblem } from './commands/check-problem.ts';
import { processIO, runCommand } from './lib/cli.ts';

process.exitCode = await runCommand((io) => checkProblem(process.argv.slice(2), io), processIO());
