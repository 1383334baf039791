// A damaged state folder is one clear line and a non-zero exit, never a stack trace or a hang, and
// judging still shows its verdict: `.kata` as a regular file, progress.json as a link to /dev/zero,
// a named pipe, a folder, or a runaway file. Commands run in-process, with the judge replaced (what
// is tested is what the commands make of its verdicts), and a state folder of this file's own.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { JudgeOptions } from '../../harness/judge/judge.ts';
import type { ProblemReport, Verdict } from '../../harness/judge/outcome.ts';
import {
  emptyProgress,
  loadProgress,
  PROGRESS_FILE,
  saveProgress,
  updateProgress,
} from '../../harness/learner/progress.ts';
import { StateError } from '../../harness/learner/state.ts';
import { REPO_ROOT, STATE_DIR } from '../../harness/paths.ts';
import { grade } from '../../scripts/commands/grade.ts';
import { hint } from '../../scripts/commands/hint.ts';
import { kata } from '../../scripts/commands/kata.ts';
import { list } from '../../scripts/commands/list.ts';
import { progress } from '../../scripts/commands/progress.ts';
import { quiz } from '../../scripts/commands/quiz.ts';
import { solution } from '../../scripts/commands/solution.ts';
import { runCommand, type IO } from '../../scripts/lib/cli.ts';
import type { Asker } from '../../scripts/lib/confirm.ts';
import { captureIO, scratchDir, unwrapped } from '../helpers.ts';

const fake = vi.hoisted(() => {
  const fs = process.getBuiltinModule('node:fs');
  const os = process.getBuiltinModule('node:os');
  const previousStateDir = process.env.KATA_STATE_DIR;
  const parent = fs.mkdtempSync(`${os.tmpdir()}/window-katas-safety-state-`);
  // The state folder is `.kata` in a folder of its own: tests make it a file.
  process.env.KATA_STATE_DIR = `${parent}/.kata`;
  return { previousStateDir, verdicts: [] as string[], judged: 0 };
});

vi.mock('../../harness/judge/judge.ts', () => ({
  releaseSlot: () => {},
  judge: async (options: JudgeOptions): Promise<ProblemReport> => {
    fake.judged++;
    const verdict = (fake.verdicts.shift() ?? 'wrong-answer') as Verdict;
    options.onDecided?.(verdict);
    return {
      dir: options.problem.dir,
      verdict,
      cases: [],
      followUps: { passed: 0, total: 1 },
      output: '',
      ms: 5,
    };
  },
}));

afterAll(() => {
  process.env.KATA_STATE_DIR = fake.previousStateDir;
});

beforeEach(() => {
  rmSync(STATE_DIR, { recursive: true, force: true });
  fake.verdicts = [];
  fake.judged = 0;
});

async function run(
  command: (argv: string[], io: IO & Asker) => Promise<number>,
  argv: string[],
  io: IO & Asker = captureIO(),
) {
  const captured = io as ReturnType<typeof captureIO>;
  const code = await runCommand((io) => command(argv, io), io);
  return { code, out: captured.stdout.join('\n'), err: captured.stderr };
}

/** One line on stderr, starting "error:", with no stack frame anywhere. */
function expectOneClearLine(err: string[], pattern: RegExp): void {
  expect(err).toHaveLength(1);
  expect(err[0]).toMatch(/^error: /);
  expect(err[0]).toMatch(pattern);
  expect(err[0]).not.toContain('\n');
  expect(err[0]).not.toMatch(/\bat .*:\d+:\d+/);
}

describe('.kata is a regular file', () => {
  const KATA_IS_A_FILE = /\.kata is a file, not a folder, so .* cannot be saved: move it away/;

  beforeEach(() => {
    writeFileSync(STATE_DIR, 'not a folder\n');
  });

  test('saving progress is one clear line and a non-zero exit', () => {
    expect(() => saveProgress(emptyProgress())).toThrow(StateError);
    expect(() => saveProgress(emptyProgress())).toThrow(KATA_IS_A_FILE);
    expect(() =>
      updateProgress(
        () => {},
        () => {},
      ),
    ).toThrow(KATA_IS_A_FILE);
    expect(readFileSync(STATE_DIR, 'utf8')).toBe('not a folder\n');
  });

  test('grade still prints its verdicts, then the line, and exits 2', async () => {
    fake.verdicts = ['accepted'];
    const { code, out, err } = await run(grade, ['933']);
    expect(code).toBe(2);
    expect(out).toMatch(/^933 · Number of Recent Calls +Easy +Accepted /m);
    expect(out).toMatch(/Solved 1\/1/);
    expectOneClearLine(err, KATA_IS_A_FILE);
    expect(readFileSync(STATE_DIR, 'utf8')).toBe('not a folder\n');
  });

  test('grade --json still prints its document', async () => {
    const { code, out, err } = await run(grade, ['933', '--json']);
    expect(code).toBe(2);
    expect(JSON.parse(out).problems[0].verdict).toBe('wrong-answer');
    expectOneClearLine(err, KATA_IS_A_FILE);
  });

  test('kata --once still prints the report, then the line', async () => {
    fake.verdicts = ['accepted'];
    const { code, out, err } = await run(kata, ['933', '--once']);
    expect(code).toBe(2);
    expect(out).toMatch(/933 · Number of Recent Calls — Accepted/);
    expectOneClearLine(err, KATA_IS_A_FILE);
  });

  test.each([
    ['hint', hint, ['933']],
    ['solution', solution, ['933', '--yes']],
    ['progress --import', progress, ['--import', 'SELF']],
  ] as const)('%s: one clear line, exit 2', async (_, command, argv) => {
    const file = path.join(scratchDir('safety-import'), 'theirs.json');
    writeFileSync(file, JSON.stringify(emptyProgress()));
    const { code, err } = await run(
      command,
      argv.map((a) => (a === 'SELF' ? file : a)),
    );
    expect(code).toBe(2);
    expectOneClearLine(err, KATA_IS_A_FILE);
  });

  test('quiz: answered, then one clear line where the score would be recorded', async () => {
    const captured = captureIO();
    const code = await runCommand(
      (io) =>
        quiz(
          ['933'],
          io,
          Array.from({ length: 50 }, () => 'a'),
        ),
      captured,
    );
    expect(code).toBe(2);
    expectOneClearLine(captured.stderr, KATA_IS_A_FILE);
  });

  test('as a real process: one line on stderr, exit code 2, no stack', () => {
    const launch = path.join(REPO_ROOT, 'scripts', 'launch.mjs');
    const result = spawnSync(process.execPath, [launch, 'hint', '933'], {
      encoding: 'utf8',
      env: { ...process.env, KATA_STATE_DIR: STATE_DIR, NO_COLOR: '1' },
      timeout: 60_000,
    });
    expect(result.status).toBe(2);
    const lines = unwrapped(result.stderr.trimEnd()).split('\n');
    expectOneClearLine(lines, KATA_IS_A_FILE);
    expect(result.stderr).not.toMatch(/node:|\bat /);
  });

  test('reading commands carry on: there is no progress to show', async () => {
    const listed = await run(list, []);
    expect(listed.code).toBe(0);
    expect(listed.err).toEqual([]);
    const shown = await run(progress, []);
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(/Nothing recorded yet/);
    const reset = await run(progress, ['--reset', '--yes']);
    expect(reset.code).toBe(0);
    expect(reset.out).toMatch(/nothing to reset/);
  });
});

describe('progress.json that is not a regular file is never read, moved or removed', () => {
  beforeEach(() => {
    mkdirSync(STATE_DIR, { recursive: true });
  });

  test('a link to /dev/zero: reading does not hang; judging shows its verdict, then one line', async () => {
    symlinkSync('/dev/zero', PROGRESS_FILE);
    const warnings: string[] = [];
    const started = Date.now();
    expect(loadProgress((w) => warnings.push(w))).toEqual(emptyProgress());
    expect(Date.now() - started).toBeLessThan(2000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/is a link to \/dev\/zero \(a character device\), not a regular/);

    fake.verdicts = ['accepted'];
    const { code, out, err } = await run(grade, ['933']);
    expect(code).toBe(2);
    expect(out).toMatch(/Accepted/);
    expectOneClearLine(err, /a link to \/dev\/zero .*cannot be saved.*left as it is/);
    // The link is where it was, leading where it did.
    expect(lstatSync(PROGRESS_FILE).isSymbolicLink()).toBe(true);
    expect(readlinkSync(PROGRESS_FILE)).toBe('/dev/zero');
    expect(readdirSync(STATE_DIR)).toEqual(['progress.json']);
  });

  test('a named pipe: reading does not wait for a writer; it stays', async () => {
    const made = spawnSync('mkfifo', [PROGRESS_FILE]);
    if (made.status !== 0) return;
    const warnings: string[] = [];
    expect(loadProgress((w) => warnings.push(w))).toEqual(emptyProgress());
    expect(warnings[0]).toMatch(/is a named pipe, not a regular file/);
    const { code, err } = await run(hint, ['933']);
    expect(code).toBe(2);
    expectOneClearLine(err, /is a named pipe/);
    expect(lstatSync(PROGRESS_FILE).isFIFO()).toBe(true);
  });

  test('a folder: a warning when reading, one line when saving, and it stays', async () => {
    mkdirSync(PROGRESS_FILE);
    writeFileSync(path.join(PROGRESS_FILE, 'keep.txt'), 'mine');
    const warnings: string[] = [];
    expect(loadProgress((w) => warnings.push(w))).toEqual(emptyProgress());
    expect(warnings[0]).toMatch(/is a folder, not a regular file/);
    const { code, err } = await run(kata, ['933', '--once']);
    expect(code).toBe(2);
    expectOneClearLine(err, /progress\.json is a folder/);
    expect(readFileSync(path.join(PROGRESS_FILE, 'keep.txt'), 'utf8')).toBe('mine');
  });

  test('progress --reset leaves it alone, in one line', async () => {
    symlinkSync('/dev/zero', PROGRESS_FILE);
    const { code, err } = await run(progress, ['--reset', '--yes']);
    expect(code).toBe(2);
    expectOneClearLine(err, /a link to \/dev\/zero/);
    expect(readlinkSync(PROGRESS_FILE)).toBe('/dev/zero');
    expect(existsSync(path.join(STATE_DIR, 'backups'))).toBe(false);
  });

  test('a file of more than 10 MB is not read: moved aside like a corrupt one', () => {
    writeFileSync(PROGRESS_FILE, '');
    truncateSync(PROGRESS_FILE, 11 * 1024 * 1024);
    const warnings: string[] = [];
    expect(loadProgress((w) => warnings.push(w))).toEqual(emptyProgress());
    expect(warnings[0]).toMatch(/could not be read \(it is 11 MB, more than the 10 MB/);
    const aside = readdirSync(STATE_DIR).filter((f) => f.startsWith('progress.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(existsSync(PROGRESS_FILE)).toBe(false);
  });

  test('progress --import of /dev/zero or of a pipe is refused at once, in one line', async () => {
    saveProgress(emptyProgress());
    const before = readFileSync(PROGRESS_FILE, 'utf8');
    const { code, err } = await run(progress, ['--import', '/dev/zero']);
    expect(code).toBe(2);
    expectOneClearLine(err, /cannot read \/dev\/zero: it is a character device/);
    const pipe = path.join(scratchDir('safety-pipe'), 'pipe');
    if (spawnSync('mkfifo', [pipe]).status === 0) {
      const piped = await run(progress, ['--import', pipe]);
      expectOneClearLine(piped.err, /it is a named pipe/);
      const exported = await run(progress, ['--export', pipe]);
      expectOneClearLine(exported.err, /will not write .*pipe: it is not a regular file/);
    }
    expect(readFileSync(PROGRESS_FILE, 'utf8')).toBe(before);
  });
});
