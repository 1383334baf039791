// Every command answers --help (and -h) with its usage, refuses an unknown option by naming the ones
// it has, and refuses positional arguments it does not take: all of it declared once, at the parse()
// call, so that no command can forget any of it. Run in-process: help and usage errors come before a
// command reads or writes anything.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { grade } from '../../scripts/commands/grade.ts';
import { hint } from '../../scripts/commands/hint.ts';
import { kata } from '../../scripts/commands/kata.ts';
import { list } from '../../scripts/commands/list.ts';
import { newProblem } from '../../scripts/commands/new-problem.ts';
import { progress } from '../../scripts/commands/progress.ts';
import { quiz } from '../../scripts/commands/quiz.ts';
import { reset } from '../../scripts/commands/reset.ts';
import { solution } from '../../scripts/commands/solution.ts';
import {
  HelpRequest,
  parse,
  runCommand,
  usageText,
  UsageError,
  type IO,
} from '../../scripts/lib/cli.ts';
import type { Asker } from '../../scripts/lib/confirm.ts';
import { captureIO } from '../helpers.ts';

type Command = (argv: string[], io: IO & Asker) => Promise<number>;

/**
 * Each command, the options its help lists (help last), and what it says it takes when given one
 * positional argument too many (grade takes any number of problems).
 */
const COMMANDS: [name: string, command: Command, options: string[], takes: string | null][] = [
  ['kata', kata, ['--once', '--reveal', '--open', '--verbose', '--help'], '[problem] only'],
  ['grade', grade, ['--dir', '--json', '--reveal', '--fresh', '--help'], null],
  ['list', list, ['--help'], 'none'],
  ['hint', hint, ['--help'], '<problem> only'],
  ['reset', reset, ['--all', '--yes', '--help'], '<problem> only'],
  ['solution', solution, ['--yes', '--help'], '<problem> only'],
  ['progress', progress, ['--export', '--import', '--reset', '--yes', '--help'], 'none'],
  ['quiz', (argv, io) => quiz(argv, io, []), ['--yes', '--help'], '[problem] only'],
  [
    'new-problem',
    newProblem,
    ['--class', '--function', '--title', '--difficulty', '--limiter', '--help'],
    '<dir> only',
  ],
];

async function run(command: Command, argv: string[]) {
  const io = Object.assign(captureIO(), { ask: async () => '' });
  const code = await runCommand((io) => command(argv, io as IO & Asker), io);
  return { code, out: io.stdout.join('\n'), err: io.stderr };
}

/** Runs scripts/bench.ts afresh with these arguments, as `npm run bench -- ARGS` would. */
async function bench(argv: string[]) {
  const saved = process.argv;
  const written: string[] = [];
  const capture = (chunk: unknown): boolean => (written.push(String(chunk)), true);
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  process.argv = [process.execPath, 'bench.ts', ...argv];
  try {
    vi.resetModules();
    await import('../../scripts/bench.ts');
    return { code: process.exitCode, text: written.join('') };
  } finally {
    process.argv = saved;
    process.exitCode = undefined;
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(COMMANDS)('npm run %s', (name, command, options, takes) => {
  test('--help and -h: the usage on stdout, exit 0, within 80 columns', async () => {
    const help = await run(command, ['--help']);
    expect(help.code).toBe(0);
    expect(help.err).toEqual([]);
    expect(help.out).toMatch(new RegExp(`^usage: npm run ${name}\\b`));
    const lines = help.out.split('\n');
    // The synopsis (a line for each form), a blank line, what it does in one line.
    const blank = lines.indexOf('');
    expect(lines.slice(1, blank).every((line) => line.startsWith('       npm run '))).toBe(true);
    expect(lines[blank + 1]).toMatch(/^[A-Z].*\.$/);
    // Each option, on a line of its own under "options:", with a few words.
    const start = lines.indexOf('options:');
    expect(start).toBeGreaterThan(2);
    const listed = lines
      .slice(start + 1)
      .filter((line) => /^ {2}(-\w, )? *--/.test(line))
      .map((line) => /--[\w-]+/.exec(line)![0]);
    expect(listed).toEqual(options);
    expect(help.out).toMatch(/^ {2}-h, --help +show this help$/m);
    expect(help.out).toMatch(/^example: npm run /m);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    expect((await run(command, ['-h'])).out).toBe(help.out);
  });

  test('--help wins over anything else given with it, but not after --', async () => {
    const help = await run(command, ['--help']);
    expect((await run(command, ['--revael', '933', '--help'])).out).toBe(help.out);
    // After `--` it is an argument like any other: no help, and no command run either.
    const after = await run(command, ['--', '--help', 'x', 'y']);
    expect(after.out).not.toContain('usage:');
    expect(after.code).toBe(2);
  });

  test('an unknown option names the ones there are, in one line, exit 2', async () => {
    const typo = await run(command, ['--revael']);
    expect(typo.code).toBe(2);
    expect(typo.out).toBe('');
    expect(typo.err).toEqual([`error: unknown option '--revael'. Options: ${options.join(', ')}`]);
    const short = await run(command, ['-x']);
    expect(short.err).toEqual([`error: unknown option '-x'. Options: ${options.join(', ')}`]);
  });

  test('a positional argument too many is an error that says what it takes', async () => {
    // grade takes any number: each is looked up (here one that is no problem's, so nothing is
    // judged), none is refused as one too many.
    const argv =
      takes === null ? ['933', '362', 'nope'] : takes === 'none' ? ['933'] : ['933', '362'];
    const extra = await run(command, argv);
    expect(extra.code).toBe(2);
    expect(extra.out).toBe('');
    const last = argv.at(-1) as string;
    expect(extra.err).toEqual([
      takes === null
        ? expect.stringMatching(/^error: Unknown problem "nope"/)
        : `error: unexpected argument "${last}": npm run ${name} takes ${takes}`,
    ]);
  });
});

test('kata accepts --watch, for scripts, without offering it', async () => {
  const help = (await run(kata, ['--help'])).out;
  expect(help).not.toContain('--watch');
  expect((await run(kata, ['--revael'])).err[0]).not.toContain('--watch');
  const usage = {
    command: 'kata',
    maxArgs: 1,
    summary: 'A command.',
    example: 'npm run kata',
    options: { watch: { type: 'boolean', hidden: true, help: 'watch' } },
  } as const;
  expect(parse(['--watch'], usage).values).toEqual({ watch: true });
});

test('the usage text: the exact layout, the npm hint only where there are options', () => {
  const text = usageText({
    command: 'progress',
    maxArgs: 0,
    summary: 'Where you stand.',
    options: {
      export: { type: 'string', value: 'FILE', help: 'write your progress to FILE' },
      yes: { type: 'boolean', short: 'y', help: 'do not ask' },
    },
    notes: ['One note.', 'Another.'],
    example: 'npm run progress -- --export p.json',
  });
  expect(text).toBe(
    [
      'usage: npm run progress [-- options]',
      '',
      'Where you stand.',
      '',
      'options:',
      '      --export FILE  write your progress to FILE',
      '  -y, --yes          do not ask',
      '  -h, --help         show this help',
      '',
      'One note. Another.',
      '',
      'With npm, options go after --: npm keeps any before it.',
      'example: npm run progress -- --export p.json',
    ].join('\n'),
  );
  const none = usageText({
    command: 'hint',
    args: '<problem>',
    maxArgs: 1,
    summary: 'A hint.',
    options: {},
    example: 'npm run hint 933',
  });
  expect(none).toMatch(/^usage: npm run hint <problem>\n/);
  expect(none).not.toContain('With npm');
  // A long help goes on under its own column.
  const long = usageText({
    command: 'x',
    maxArgs: 0,
    summary: 'S.',
    options: { flag: { type: 'boolean', help: 'word '.repeat(30).trim() } },
    example: 'npm run x',
  });
  for (const line of long.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  expect(long).toMatch(/^ {6}--flag {2}word .*\n {14}word /m);
});

test('parse throws a HelpRequest and UsageErrors, which runCommand turns into exit codes', () => {
  const usage = { command: 'list', maxArgs: 0, summary: 'S.', options: {}, example: 'e' };
  expect(() => parse(['-h'], usage)).toThrow(HelpRequest);
  expect(() => parse(['x'], usage)).toThrow(UsageError);
  expect(() => parse(['x'], usage)).toThrow('unexpected argument "x": npm run list takes none');
  // A missing value or a value given to a flag: which option, and where to read more.
  const grading = {
    command: 'grade',
    maxArgs: Infinity,
    summary: 'S.',
    options: { dir: { type: 'string', help: 'd' }, json: { type: 'boolean', help: 'j' } },
    example: 'e',
  } as const;
  expect(() => parse(['--dir'], grading)).toThrow(/^--dir needs a value: --dir VALUE$/);
  expect(() => parse(['--dir', '--json'], grading)).toThrow(
    /^--dir needs a value: --dir VALUE \(one starting with - as --dir=-…\)$/,
  );
  expect(parse(['--dir=-x'], grading).values).toEqual({ dir: '-x' });
  expect(() => parse(['--json=yes'], grading)).toThrow(/^--json takes no value$/);
  expect(parse(['a', 'b', 'c'], grading).positionals).toEqual(['a', 'b', 'c']);
});

describe('npm run bench', () => {
  test('--help: the usage, exit 0, within 80 columns, and nothing measured', async () => {
    const { code, text } = await bench(['--help']);
    expect(code).toBe(0);
    expect(text).toMatch(/^usage: npm run bench \[limits\|grade\|watch\|redis\] \[-- options\]\n/);
    for (const option of ['--load', '--rounds N', '--concurrency C', '--only LIST', '--help']) {
      expect(text).toContain(option);
    }
    expect(text).not.toContain('Limits of the scale');
    for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  test.each([
    [
      ['--revael'],
      "error: unknown option '--revael'. Options: --load, --rounds, --concurrency, --only, --help",
    ],
    [['limit'], 'error: no section "limit": limits, grade, watch or redis'],
    [
      ['grade', 'watch'],
      'error: unexpected argument "watch": npm run bench takes [limits|grade|watch|redis] only',
    ],
    [['--rounds', '3'], 'error: --rounds goes with --load'],
    [['grade', '--only', '933'], 'error: --only goes with --load or with the limits section'],
  ])('%j is a usage error, exit 2', async (argv, message) => {
    const { code, text } = await bench(argv);
    expect(code).toBe(2);
    expect(text.trimEnd()).toMatch(message);
    expect(text.trimEnd().split('\n')).toHaveLength(1);
  });
});
