// What every command shares: argument parsing, bad input answered in one line with exit code 2, and
// the streams it writes to (injected, so tests can run commands in-process).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestProblem, findProblem, type Problem } from '../../harness/judge/problems.ts';
import { StateError } from '../../harness/learner/state.ts';
import {
  ARGUMENT_ROOM,
  escapeControl,
  hasControl,
  shownArgument,
} from '../../harness/terminal/escape.ts';
import { colorEnabled, makeStyle, type Style } from '../../harness/terminal/style.ts';

export const USAGE_EXIT = 2;

export class UsageError extends Error {}

/** An argument the learner typed, fit to be echoed in an error line: escaped, and cut if long. */
export const shownArg = (text: string): string => shownArgument(text);

/** An error line is cut here, whatever it echoes. */
const MAX_ERROR_LENGTH = 400;

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
    throw new UsageError(echoing((error as Error).message.split('\n')[0] as string, argv));
  }
}

/**
 * parseArgs quotes the offending argument in its message, maybe twice (the second time as JSON):
 * each long argument, or one with control characters, is replaced by its cut and escaped form.
 */
function echoing(message: string, argv: string[]): string {
  const pieces = new Set(argv.flatMap((arg) => [arg, arg.split('=')[0] as string]));
  const risky = [...pieces]
    .filter((piece) => piece.length > ARGUMENT_ROOM || hasControl(piece))
    .sort((a, b) => b.length - a.length);
  let text = message;
  for (const piece of risky) {
    const shown = shownArg(piece);
    text = text.split(piece).join(shown).split(JSON.stringify(piece).slice(1, -1)).join(shown);
  }
  return text;
}

/** Names longer than this are no problem's, and are not compared letter by letter with each one. */
const MAX_NAME_LENGTH = 200;

export function resolveProblem(problems: Problem[], name: string): Problem {
  const found = name.length <= MAX_NAME_LENGTH ? findProblem(problems, name) : undefined;
  if (found) return found;
  const closest = name.length <= MAX_NAME_LENGTH ? closestProblem(problems, name) : undefined;
  const known = problems.map((p) => p.id).join(', ');
  const suggestion = closest ? ` Did you mean ${closest.id} (${closest.slug})?` : '';
  throw new UsageError(
    `Unknown problem "${shownArg(name)}".${suggestion} Known problems: ${known}.`,
  );
}

/**
 * The problems named, each once, in the order first named: `933 933` or `933
 * number-of-recent-calls` judges 933 once.
 */
export function resolveProblems(problems: Problem[], names: string[]): Problem[] {
  const chosen = new Set<Problem>();
  const seen = new Set<string>();
  for (const name of names) {
    // Thousands of copies of one name cost one look-up.
    if (seen.has(name)) continue;
    seen.add(name);
    chosen.add(resolveProblem(problems, name));
  }
  return [...chosen];
}

/**
 * Runs a command, turning a UsageError (bad input) or a StateError (a state folder or file that
 * cannot be used) into one clear line, control characters escaped, and exit code 2.
 */
export async function runCommand(command: (io: IO) => Promise<number>, io: IO): Promise<number> {
  try {
    return await command(io);
  } catch (error) {
    if (error instanceof UsageError || error instanceof StateError) {
      io.err(`error: ${errorLine(error.message)}`);
      return USAGE_EXIT;
    }
    throw error;
  }
}

/** One line, whatever the message holds, and never a screenful. */
export function errorLine(message: string): string {
  const line = escapeControl(message);
  return line.length > MAX_ERROR_LENGTH ? `${line.slice(0, MAX_ERROR_LENGTH - 1)}…` : line;
}
