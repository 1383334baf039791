import { benchMain } from './commands/bench.ts';

process.exitCode = await benchMain(process.argv.slice(2));
