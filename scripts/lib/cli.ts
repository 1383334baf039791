// What every command shares: argument parsing as each command declares it (its --help is made from
// that declaration), bad input answered in one line with exit code 2, and the streams it writes to
// (injected, so tests can run commands in-process).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestProblem, findProblem, type Problem } from '../../harness/judge/problems.ts';
import { StateError } from '../../harness/learner/state.ts';
import { ARGUMENT_ROOM, escapeControl, hasControl, shownArgument } from '../../harness/escape.ts';
import { colorEnabled, makeStyle, type Style } from '../../harness/terminal/style.ts';
import { setWidth, WIDTH, wrap } from '../../harness/terminal/wrap.ts';

export const USAGE_EXIT = 2;

export class UsageError extends Error {}

/** `--help` or `-h` was given: the message is the usage text, shown on stdout with exit code 0. */
export class HelpRequest extends Error {}

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
  /**
   * In a terminal only: shows a progress line that the next line written replaces (not kept in
   * the scrollback). Absent when output is piped: progress is then not shown at all.
   */
  transient?: (text: string) => void;
  /** In a terminal only: clears the screen, as a new judgement starts. */
  clear?: () => void;
}

/** An error line's label: what wraps continues under the message, clear of it. */
const ERROR_LABEL = /^(error|warning): /;

/**
 * What goes to stderr, wrapped to the width as everything else is: each line continues under its
 * own text (under the message after "error: "). Paths and commands are never cut in two.
 */
export function wrapError(text: string, width: number = WIDTH): string {
  return text
    .split('\n')
    .map((line) => {
      const hanging = ERROR_LABEL.exec(line)?.[0] ?? /^\s*/.exec(line)?.[0] ?? '';
      return wrap(line, width, ' '.repeat(hanging.length), { cutLongWords: false });
    })
    .join('\n');
}

export function processIO(): IO {
  const tty = Boolean(process.stdout.isTTY);
  // Text is wrapped to the terminal's width; piped output gets the default.
  setWidth(tty ? process.stdout.columns : undefined);
  // Piped into `head` and cut off: stop quietly, as other command-line tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  // A progress line stays on screen until the next line replaces it.
  let pending = false;
  const settle = (): void => {
    if (pending) process.stdout.write('\r\x1b[K');
    pending = false;
  };
  return {
    out: (text) => {
      settle();
      process.stdout.write(`${text}\n`);
    },
    err: (text) => {
      settle();
      process.stderr.write(`${wrapError(text)}\n`);
    },
    interactive: tty && Boolean(process.stdin.isTTY),
    style: makeStyle(colorEnabled(tty)),
    ...(tty
      ? {
          transient: (text: string) => {
            settle();
            // Cut to the width: a wrapped progress line could not be taken back whole.
            process.stdout.write(text.length > WIDTH - 1 ? text.slice(0, WIDTH - 1) : text);
            pending = true;
          },
          clear: () => {
            settle();
            process.stdout.write('\x1b[H\x1b[2J');
          },
        }
      : {}),
  };
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** An option as a command declares it: what parseArgs needs, and what --help says of it. */
export type OptionSpec = Options[string] & {
  /** What it does, in a few words. */
  help: string;
  /** The name of its value, for an option that takes one: `--export FILE`. */
  value?: string;
  /** Accepted, but neither shown by --help nor listed after an unknown option (for scripts). */
  hidden?: boolean;
};

/**
 * What a command takes, declared where it parses its arguments: --help is made from it, and an
 * unknown option or one argument too many is refused with it, so no command can forget either.
 */
export interface Usage<T extends Record<string, OptionSpec>> {
  /** The script's name in package.json: `npm run <command>`. */
  command: string;
  /**
   * Its positional arguments as the synopsis shows them (`<problem>`, `[problem]`, `[problem...]`),
   * and as an argument too many is answered: "npm run hint takes <problem> only".
   */
  args?: string;
  /** How many positional arguments it takes at most (Infinity for any number). */
  maxArgs: number;
  /** Synopsis lines, when the one made from `args` and the options does not tell it all. */
  synopsis?: string[];
  /** What the command does, in one line. */
  summary: string;
  options: T;
  /** Sentences shown after the options: what it does without arguments, and the like. */
  notes?: string[];
  /** One command line to copy, as npm needs it (options after `--`). */
  example: string;
}

const HELP_OPTION = { type: 'boolean', short: 'h', help: 'show this help' } as const;

type Config<T extends Options> = {
  args: string[];
  options: T;
  allowPositionals: true;
  strict: true;
};

/**
 * Parses a command's arguments as its usage declares them. `--help` (`-h`) throws a HelpRequest
 * holding the usage text; an unknown option, a missing value or more positional arguments than the
 * command takes throws a one-line UsageError that says what it does take.
 */
export function parse<T extends Record<string, OptionSpec>>(argv: string[], usage: Usage<T>) {
  const options = { ...usage.options, help: HELP_OPTION };
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    // `--revael --help` wants the help, not a complaint about --revael.
    if (asksForHelp(argv)) throw new HelpRequest(usageText(usage));
    throw new UsageError(parseProblem(error as Error & { code?: string }, argv, usage));
  }
  const values = parsed.values as Record<string, unknown>;
  if (values.help) throw new HelpRequest(usageText(usage));
  delete values.help;
  const extra = parsed.positionals[usage.maxArgs];
  if (extra !== undefined) {
    const takes = usage.maxArgs === 0 || !usage.args ? 'none' : `${usage.args} only`;
    throw new UsageError(
      `unexpected argument "${shownArg(extra)}": npm run ${usage.command} takes ${takes}`,
    );
  }
  return parsed as unknown as ReturnType<typeof parseArgs<Config<T>>>;
}

/** Whether `--help` or `-h` comes before any `--` that ends the options. */
function asksForHelp(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** The options --help shows, `help` last. */
function shownOptions(usage: Usage<Record<string, OptionSpec>>): [string, OptionSpec][] {
  const declared = Object.entries(usage.options).filter(([, spec]) => !spec.hidden);
  return [...declared, ['help', HELP_OPTION]];
}

/** Why parseArgs refused the arguments, in one line that says what would do. */
function parseProblem(
  error: Error & { code?: string },
  argv: string[],
  usage: Usage<Record<string, OptionSpec>>,
): string {
  const unknown = /^Unknown option '([\s\S]*?)'\. To specify/.exec(error.message);
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
    const known = shownOptions(usage).map(([name]) => `--${name}`);
    return `unknown option '${shownArg(unknown[1] as string)}'. Options: ${known.join(', ')}`;
  }
  // A missing value, or a value given to a flag: parseArgs names the option, as declared.
  const named = /^Option '(?:-\w, )?(--[\w-]+)(?: <value>)?'/.exec(error.message)?.[1];
  const key = named?.slice(2) ?? '';
  const spec = Object.hasOwn(usage.options, key) ? usage.options[key] : undefined;
  if (named !== undefined && spec !== undefined) {
    if (spec.type === 'boolean') return `${named} takes no value`;
    const wanted = `${named} needs a value: ${named} ${spec.value ?? 'VALUE'}`;
    // `--dir --json`: a value that starts with a dash must be joined to its option.
    const ambiguous = error.message.includes('argument is ambiguous');
    return ambiguous ? `${wanted} (one starting with - as ${named}=-…)` : wanted;
  }
  const first = (error.message.split('\n')[0] as string).replace(/\.$/, '');
  return echoing(first, argv);
}

function synopsis(usage: Usage<Record<string, OptionSpec>>): string[] {
  if (usage.synopsis) return usage.synopsis;
  const args = usage.args ? ` ${usage.args}` : '';
  const options = shownOptions(usage).length > 1 ? ' [-- options]' : '';
  return [`npm run ${usage.command}${args}${options}`];
}

/** What --help prints: synopsis, what the command does, each option, notes and an example. */
export function usageText(usage: Usage<Record<string, OptionSpec>>): string {
  const lines = synopsis(usage).map((line, i) => `${i === 0 ? 'usage: ' : '       '}${line}`);
  lines.push('', wrap(usage.summary), '', 'options:');
  const shown = shownOptions(usage);
  const labels = shown.map(([name, spec]) => {
    const short = spec.short ? `-${spec.short}, ` : '    ';
    return `${short}--${name}${spec.value ? ` ${spec.value}` : ''}`;
  });
  const column = 2 + Math.max(...labels.map((label) => label.length)) + 2;
  shown.forEach(([, spec], i) => {
    const label = `  ${labels[i] as string}`.padEnd(column);
    lines.push(wrap(`${label}${spec.help}`, WIDTH, ' '.repeat(column)));
  });
  if (usage.notes) lines.push('', wrap(usage.notes.join(' ')));
  lines.push('');
  // `npm run kata 933 --once` passes no --once: npm takes it for itself.
  if (shown.length > 1) lines.push(wrap('With npm, options go after --: npm keeps any before it.'));
  lines.push(wrap(`example: ${usage.example}`, WIDTH, '  '));
  return lines.join('\n');
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
  // A problem without a number has its slug as id: name it once, not "X (X)".
  const suggestion = closest
    ? ` Did you mean ${closest.id}${closest.slug === closest.id ? '' : ` (${closest.slug})`}?`
    : '';
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
 * cannot be used) into one clear line, control characters escaped, and exit code 2; a HelpRequest
 * into its usage text on stdout, and exit code 0.
 */
export async function runCommand(command: (io: IO) => Promise<number>, io: IO): Promise<number> {
  try {
    return await command(io);
  } catch (error) {
    if (error instanceof HelpRequest) {
      io.out(error.message);
      return 0;
    }
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
