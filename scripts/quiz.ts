import { quiz } from './commands/quiz.ts';
import { processIO, runCommand } from './lib/cli.ts';

process.exitCode = await runCommand((io) => quiz(process.argv.slice(2), io), processIO());
