// What every command shares: argument parsing, bad input answered in one line with exit code 2, and
// the streams it writes to (injected, so tests can run commands in-process).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestProblem, findProblem, type Problem } from '../../harness/judge/problems.ts';
import { colorEnabled, makeStyle, type Style } from '../../harness/terminal/style.ts';

export const USAGE_EXIT = 2;

export class UsageError extends Error {}

export interface IO {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Both ends are a terminal: watch mode and confirmations are possible. */
  interactive: boolean;
  style: Style;
}

export function processIO(): IO {
  const tty = Boolean(process.stdout.isTTY);
  // Piped into `head` and cut off: stop quietly, as other command-line tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  return {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    interactive: tty && Boolean(process.stdin.isTTY),
    style: makeStyle(colorEnabled(tty)),
  };
}

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: T,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]);
  }
}

export function resolveProblem(problems: Problem[], name: string): Problem {
  const found = findProblem(problems, name);
  if (found) return found;
  const closest = closestProblem(problems, name);
  const known = problems.map((p) => p.id).join(', ');
  const suggestion = closest ? ` Did you mean ${closest.id} (${closest.slug})?` : '';
  throw new UsageError(`Unknown problem "${name}".${suggestion} Known problems: ${known}.`);
}

/** Runs a command, turning a UsageError into one clear line and exit code 2. */
export async function runCommand(command: (io: IO) => Promise<number>, io: IO): Promise<number> {
  try {
    return await command(io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`error: ${error.message}`);
      return USAGE_EXIT;
    }
    throw error;
  }
}
