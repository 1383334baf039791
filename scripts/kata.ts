import { kata } from './commands/kata.ts';
import { processIO, runCommand } from './lib/cli.ts';

const code = await runCommand((io) => kata(process.argv.slice(2), io), processIO());
// Watch mode leaves standard input and the bundler's service open; the learner asked to quit.
process.exit(code);
