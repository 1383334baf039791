import { interview } from './commands/interview.ts';
import { processIO, runCommand } from './lib/cli.ts';

const code = await runCommand((io) => interview(process.argv.slice(2), io), processIO());
// Watch mode leaves standard input and the bundler's service open; the interview is over.
process.exit(code);
