import { grade } from './commands/grade.ts';
import { processIO, runCommand } from './lib/cli.ts';

process.exitCode = await runCommand((io) => grade(process.argv.slice(2), io), processIO());
