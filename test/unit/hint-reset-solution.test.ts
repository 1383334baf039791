// hint, reset and solution in-process, with the y/N question answered by the test, and the parts of
// kata, list and grade that show them: the `h` key, --open, and the marks for a solve with hints.
// Problems are read from a scratch copy of problems/ (reset writes there, and the real stubs must
// stay pristine for the other tests), progress goes to a state folder of this file's own, and the
// judge is replaced: what is tested here is what the commands make of its verdicts.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { JudgeOptions } from '../../harness/judge/judge.ts';
import { loadHints, pristineStubFile } from '../../harness/learner/learning.ts';
import type { ProblemReport, Verdict } from '../../harness/judge/outcome.ts';
import { PROBLEMS_DIR, SOLUTIONS_DIR } from '../../harness/paths.ts';
import { loadProblems } from '../../harness/judge/problems.ts';
import {
  emptyProgress,
  recordReport,
  entryFor,
  loadProgress,
  PROGRESS_FILE,
  saveProgress,
  type ProblemProgress,
} from '../../harness/learner/progress.ts';
import { makeStyle } from '../../harness/terminal/style.ts';
import { stripAnsi, visibleLength } from '../../harness/terminal/wrap.ts';
import { grade } from '../../scripts/commands/grade.ts';
import { hint, hintCount } from '../../scripts/commands/hint.ts';
import { kata, openInEditor } from '../../scripts/commands/kata.ts';
import { list } from '../../scripts/commands/list.ts';
import { BACKUP_DIR, reset, shownPath } from '../../scripts/commands/reset.ts';
import { paintSource, solution } from '../../scripts/commands/solution.ts';
import { runCommand, type IO } from '../../scripts/lib/cli.ts';
import { agreed, confirm, needsConfirmation, type Asker } from '../../scripts/lib/confirm.ts';
import { captureIO, scratchDir } from '../helpers.ts';

const fake = vi.hoisted(() => {
  const fs = process.getBuiltinModule('node:fs');
  const os = process.getBuiltinModule('node:os');
  const previousStateDir = process.env.KATA_STATE_DIR;
  process.env.KATA_STATE_DIR = fs.mkdtempSync(`${os.tmpdir()}/window-katas-tools-state-`);
  return {
    previousStateDir,
    problemsDir: fs.mkdtempSync(`${os.tmpdir()}/window-katas-tools-problems-`),
    /** Set by a test to read the catalogue from a damaged copy of solutions/. */
    solutionsDir: undefined as string | undefined,
    /** Verdicts the fake judge gives, in turn. */
    verdicts: [] as string[],
  };
});

vi.mock('../../harness/judge/problems.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../harness/judge/problems.ts')>();
  return {
    ...actual,
    loadProblems: (solutionsDir?: string, problemsDir?: string) =>
      actual.loadProblems(solutionsDir ?? fake.solutionsDir, problemsDir ?? fake.problemsDir),
  };
});

vi.mock('../../harness/judge/judge.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../harness/judge/judge.ts')>()),
  judge: async (options: JudgeOptions): Promise<ProblemReport> => {
    const verdict = (fake.verdicts.shift() ?? 'not-started') as Verdict;
    options.onDecided?.(verdict);
    return {
      dir: options.problem.dir,
      verdict,
      cases: [],
      followUps: { passed: 1, total: 1 },
      output: '',
      ms: 5,
    };
  },
}));

const problems = loadProblems();
const p933 = problems.find((p) => p.id === '933')!;
const p362 = problems.find((p) => p.id === '362')!;
const text = (lines: string[]): string => lines.join('\n');
const stripped = (lines: string[]): string[] => stripAnsi(text(lines)).split('\n');

/** A captured IO that may be a terminal, answering each y/N question with the next answer. */
function askingIO(answers: string[] = [], interactive = answers.length > 0) {
  const io = captureIO();
  io.interactive = interactive;
  const prompts: string[] = [];
  const asking: typeof io & Asker & { prompts: string[] } = Object.assign(io, {
    prompts,
    ask: async (prompt: string) => {
      prompts.push(prompt);
      return answers.shift() ?? '';
    },
  });
  return asking;
}

/** Runs a command as its entry point does: a UsageError becomes one line and exit code 2. */
async function run(
  command: (argv: string[], io: IO & Asker) => Promise<number>,
  argv: string[],
  io = askingIO(),
) {
  const code = await runCommand((io) => command(argv, io), io);
  return { code, io, out: text(io.stdout), err: text(io.stderr) };
}

function setProgress(entries: Record<string, Partial<ProblemProgress>>): void {
  const progress = emptyProgress();
  for (const [dir, fields] of Object.entries(entries))
    Object.assign(entryFor(progress, dir), fields);
  saveProgress(progress);
}

const entry = (dir: string): ProblemProgress | undefined => loadProgress(() => {}).problems[dir];
const backups = (): string[] => (existsSync(BACKUP_DIR) ? readdirSync(BACKUP_DIR).sort() : []);

beforeEach(() => {
  rmSync(PROGRESS_FILE, { force: true });
  rmSync(BACKUP_DIR, { recursive: true, force: true });
  rmSync(fake.problemsDir, { recursive: true, force: true });
  cpSync(PROBLEMS_DIR, fake.problemsDir, { recursive: true });
  fake.verdicts = [];
  fake.solutionsDir = undefined;
});

afterAll(() => {
  process.env.KATA_STATE_DIR = fake.previousStateDir;
  rmSync(fake.problemsDir, { recursive: true, force: true });
});

test('the commands see the scratch problems and state, never the real ones', () => {
  expect(p933.stubFile.startsWith(fake.problemsDir)).toBe(true);
  expect(PROGRESS_FILE.startsWith(process.env.KATA_STATE_DIR!)).toBe(true);
  expect(BACKUP_DIR).toBe(path.join(process.env.KATA_STATE_DIR!, 'backups'));
});

describe('confirm', () => {
  test('only y or yes (any case, any spaces) is a yes', async () => {
    for (const [answer, yes] of [
      ['y', true],
      [' YES ', true],
      ['Y', true],
      ['n', false],
      ['', false],
      ['yeah', false],
    ] as const) {
      expect(await confirm('Go?', askingIO([answer])), answer).toBe(yes);
    }
  });

  test('the question is wrapped, leaving room for the answer after [y/N]', async () => {
    const io = askingIO(['y']);
    await confirm('word '.repeat(30).trim(), io);
    const lines = io.prompts[0]!.split('\n');
    expect(lines.at(-1)).toMatch(/ \[y\/N\] $/);
    expect(Math.max(...lines.map(visibleLength))).toBeLessThanOrEqual(80);
  });

  test('--yes needs no question; without a terminal, nobody can answer', async () => {
    expect(needsConfirmation(true, askingIO(), 'x')).toBe(false);
    expect(needsConfirmation(false, askingIO([], true), 'x')).toBe(true);
    expect(() => needsConfirmation(false, askingIO(), 'reset')).toThrow(
      'no terminal to confirm in: pass --yes to reset (after -- with npm run).',
    );
    const io = askingIO();
    expect(await agreed('Go?', true, io, 'go')).toBe(true);
    expect(io.prompts).toEqual([]);
  });

  describe('from the real standard input', () => {
    let stdin: PassThrough;
    let written: string[];

    beforeEach(() => {
      stdin = new PassThrough();
      written = [];
      vi.spyOn(process, 'stdin', 'get').mockReturnValue(stdin as unknown as typeof process.stdin);
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
        written.push(String(chunk));
        return true;
      });
    });

    afterEach(() => {
      vi.restoreAllMocks();
    });

    test('reads one line after printing the question', async () => {
      const answer = confirm('Really?', captureIO());
      stdin.write('yes\n');
      expect(await answer).toBe(true);
      expect(written.join('')).toContain('Really? [y/N] ');
    });

    test('the end of input (Ctrl-D) is a no', async () => {
      const answer = confirm('Really?', captureIO());
      stdin.end();
      expect(await answer).toBe(false);
    });
  });
});

describe('hint', () => {
  const hints = loadHints(p933);

  test('the first hint, numbered, and it is counted', async () => {
    const { code, out } = await run(hint, ['933']);
    expect(code).toBe(0);
    expect(out).toMatch(/^933 · Number of Recent Calls — hints\n\nHint 1\/4 {2}You never need/);
    expect(out).toContain(`${hints.length - 1} more to come: npm run hint 933 again`);
    expect(out).not.toContain('Hint 2/');
    expect(entry(p933.dir)).toMatchObject({
      hintsUsed: 1,
      attempts: 0,
      bestVerdict: 'not-started',
    });
  });

  test('each run adds the next hint under the ones seen, which are dimmed', async () => {
    await run(hint, ['933']);
    const io = askingIO();
    io.style = makeStyle(true);
    const { out } = await run(hint, ['number-of-recent-calls'], io);
    expect(out).toContain('\u001b[2mHint 1/4  You never need the whole history');
    expect(stripAnsi(out)).toMatch(/Hint 2\/4 {2}Time only moves forward/);
    expect(out).toContain('\u001b[33m\u001b[1mHint 2/4');
    expect(entry(p933.dir)?.hintsUsed).toBe(2);
  });

  test('after the last hint it says so and points at the solution; then it repeats them', async () => {
    setProgress({ [p933.dir]: { hintsUsed: hints.length - 1 } });
    const last = await run(hint, ['933']);
    expect(last.out).toContain(`Hint ${hints.length}/${hints.length}`);
    expect(last.out.replace(/\s+/g, ' ')).toContain(
      'That was the last hint. The reference solution and why it works: npm run solution 933',
    );
    const again = await run(hint, ['933']);
    expect(again.out).toMatch(/You have seen all 4 hints\./);
    expect(again.out.replace(/\s+/g, ' ')).toContain('npm run solution 933');
    expect(entry(p933.dir)?.hintsUsed).toBe(hints.length);
  });

  test('once accepted, every hint is shown and none is counted', async () => {
    setProgress({ [p933.dir]: { bestVerdict: 'accepted', attempts: 1 } });
    const { out } = await run(hint, ['933']);
    for (let i = 1; i <= hints.length; i++) expect(out).toContain(`Hint ${i}/${hints.length}`);
    expect(out).toContain('none is counted');
    expect(entry(p933.dir)?.hintsUsed).toBeUndefined();
  });

  test('every line fits 80 columns', async () => {
    for (const problem of problems) {
      setProgress({ [problem.dir]: { hintsUsed: 10 } });
      const { io } = await run(hint, [problem.id]);
      for (const line of stripped(io.stdout)) expect(line.length, line).toBeLessThanOrEqual(80);
    }
  });

  test('needs exactly one known problem', async () => {
    expect((await run(hint, [])).err).toBe(
      'error: name one problem: npm run hint <problem> (for example npm run hint 933)',
    );
    expect((await run(hint, ['933', '362'])).code).toBe(2);
    const unknown = await run(hint, ['nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^error: Unknown problem "nope"/);
  });

  test('a judgement keeps the hints, the viewed solution and the quiz', () => {
    const progress = emptyProgress();
    Object.assign(entryFor(progress, p933.dir), {
      hintsUsed: 2,
      solutionViewed: 'then',
      solutionViewedBeforeAccepted: true,
      quiz: { best: 4, last: 3, total: 5, at: 'then' },
    });
    recordReport(progress, {
      dir: p933.dir,
      verdict: 'accepted',
      cases: [],
      followUps: { passed: 2, total: 4 },
      output: '',
      ms: 1,
    });
    expect(progress.problems[p933.dir]).toMatchObject({
      bestVerdict: 'accepted',
      attempts: 1,
      hintsUsed: 2,
      solutionViewedBeforeAccepted: true,
      quiz: { best: 4 },
    });
    expect(hintCount(1)).toBe('1 hint');
    expect(hintCount(3)).toBe('3 hints');
  });
});

describe('reset', () => {
  const pristine = (problem = p933): string => readFileSync(pristineStubFile(problem), 'utf8');
  const mine = 'export class RecentCounter { ping() { return 42; } }\n';

  test('an untouched stub is left alone, with a note, and needs no --yes', async () => {
    const { code, out } = await run(reset, ['933']);
    expect(code).toBe(0);
    expect(out).toBe('933: already the stub as shipped, nothing to reset');
    expect(backups()).toEqual([]);
  });

  test('without a terminal and without --yes it refuses, changing nothing', async () => {
    writeFileSync(p933.stubFile, mine);
    const { code, err } = await run(reset, ['933']);
    expect(code).toBe(2);
    expect(err).toMatch(/^error: no terminal to confirm in: pass --yes to reset/);
    expect(readFileSync(p933.stubFile, 'utf8')).toBe(mine);
    expect(backups()).toEqual([]);
  });

  test('--yes backs the file up, then puts the stub back', async () => {
    writeFileSync(p933.stubFile, mine);
    const { code, out } = await run(reset, ['933', '--yes']);
    expect(code).toBe(0);
    expect(readFileSync(p933.stubFile, 'utf8')).toBe(pristine());
    const [backup] = backups();
    expect(backup).toMatch(
      /^933-number-of-recent-calls-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.ts$/,
    );
    expect(readFileSync(path.join(BACKUP_DIR, backup!), 'utf8')).toBe(mine);
    // The path may be cut to fit the screen (it is long here, in a temporary folder).
    expect(stripAnsi(out).replace(/\s+/g, '')).toContain(
      `✓933:stubrestored;yourfileissavedas${shownPath(path.join(BACKUP_DIR, backup!))}`,
    );
  });

  test('in a terminal it asks; no leaves everything as it was', async () => {
    writeFileSync(p933.stubFile, mine);
    const io = askingIO(['n']);
    const { code, out } = await run(reset, ['933'], io);
    expect(code).toBe(1);
    expect(out).toBe('Nothing was reset.');
    expect(io.prompts[0]!.replace(/\s+/g, '')).toContain(
      `Replace${shownPath(p933.stubFile)}withthestub`,
    );
    expect(readFileSync(p933.stubFile, 'utf8')).toBe(mine);
    expect(backups()).toEqual([]);
  });

  test('in a terminal, yes resets', async () => {
    writeFileSync(p933.stubFile, mine);
    const { code } = await run(reset, ['933'], askingIO(['y']));
    expect(code).toBe(0);
    expect(readFileSync(p933.stubFile, 'utf8')).toBe(pristine());
    expect(backups()).toHaveLength(1);
  });

  test('two resets in the same millisecond keep both backups', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-29T15:20:01.123Z'));
      writeFileSync(p933.stubFile, 'first');
      await run(reset, ['933', '-y']);
      writeFileSync(p933.stubFile, 'second');
      await run(reset, ['933', '-y']);
    } finally {
      vi.useRealTimers();
    }
    const files = backups();
    expect(files).toEqual([
      '933-number-of-recent-calls-2026-11-29T15-20-01-123Z-2.ts',
      '933-number-of-recent-calls-2026-11-29T15-20-01-123Z.ts',
    ]);
    expect(readFileSync(path.join(BACKUP_DIR, files[1]!), 'utf8')).toBe('first');
    expect(readFileSync(path.join(BACKUP_DIR, files[0]!), 'utf8')).toBe('second');
  });

  test('a deleted file is simply restored: there is nothing to back up', async () => {
    rmSync(path.dirname(p933.stubFile), { recursive: true });
    const { code, out } = await run(reset, ['933', '--yes']);
    expect(code).toBe(0);
    expect(readFileSync(p933.stubFile, 'utf8')).toBe(pristine());
    expect(stripAnsi(out).replace(/\s+/g, ' ')).toContain('stub restored; ');
    expect(out).toContain('was missing');
    expect(backups()).toEqual([]);
  });

  test('--all resets every changed problem, one backup each, and speaks only of those', async () => {
    writeFileSync(p933.stubFile, mine);
    writeFileSync(p362.stubFile, 'export class HitCounter {}\n');
    const io = askingIO(['yes']);
    const { code, out } = await run(reset, ['--all'], io);
    expect(code).toBe(0);
    expect(io.prompts[0]).toMatch(/^Replace 2 solutions \(933, 362\) with the stub as shipped\?/);
    for (const problem of problems) {
      expect(readFileSync(problem.stubFile, 'utf8')).toBe(pristine(problem));
    }
    expect(backups().map((f) => f.replace(/-\d{4}-.*$/, ''))).toEqual([
      '362-design-hit-counter',
      '933-number-of-recent-calls',
    ]);
    // The stubs left as they were go unmentioned: every line is about a file that changed.
    expect(out).not.toContain('already the stub as shipped');
    const said = stripped(io.stdout).filter((line) => !line.startsWith('  '));
    expect(said).toEqual([
      expect.stringMatching(/^✓ 933: stub restored; /),
      expect.stringMatching(/^✓ 362: stub restored; /),
    ]);
    for (const line of stripped(io.stdout)) expect(line.length).toBeLessThanOrEqual(80);
  });

  test('--all with every stub as shipped says so in one line, and asks nothing', async () => {
    const io = askingIO();
    const { code, out } = await run(reset, ['--all'], io);
    expect(code).toBe(0);
    expect(out).toBe('Every stub is already as shipped: nothing to reset.');
    expect(io.prompts).toEqual([]);
    expect(backups()).toEqual([]);
  });

  test('one problem or --all, not both, not neither', async () => {
    for (const argv of [[], ['933', '--all']]) {
      const { code, err } = await run(reset, argv);
      expect(code, argv.join(' ')).toBe(2);
      expect(err).toBe(
        'error: name one problem or --all: npm run reset 933, or npm run reset -- --all',
      );
    }
    const two = await run(reset, ['933', '362']);
    expect(two.code).toBe(2);
    expect(two.err).toBe('error: unexpected argument "362": npm run reset takes <problem> only');
    expect((await run(reset, ['--frobnicate'])).code).toBe(2);
  });

  test('shownPath is relative below the working folder, absolute elsewhere', () => {
    expect(shownPath(path.join(process.cwd(), 'a', 'b.ts'))).toBe(path.join('a', 'b.ts'));
    expect(shownPath('/somewhere/else.ts')).toBe('/somewhere/else.ts');
  });
});

describe('solution', () => {
  const reference = readFileSync(p933.referenceFile, 'utf8');

  test('before acceptance, without a terminal and without --yes: refused, nothing recorded', async () => {
    const { code, err, out } = await run(solution, ['933']);
    expect(code).toBe(2);
    expect(err).toBe(
      'error: no terminal to confirm in: pass --yes to see the reference before solving (after -- with npm run).',
    );
    expect(out).toBe('');
    expect(entry(p933.dir)).toBeUndefined();
  });

  test('before acceptance, --yes shows it and records that they looked first', async () => {
    const { code, out } = await run(solution, ['933', '--yes']);
    expect(code).toBe(0);
    expect(out).toContain('933 · Number of Recent Calls — the reference solution');
    expect(out).toContain(reference.split('\n')[10]);
    // The explanation, rendered: its headings lose their markers.
    expect(out).toContain('\nThe idea\n');
    expect(out).not.toContain('## The idea');
    const viewed = entry(p933.dir);
    expect(viewed?.solutionViewed).toEqual(expect.any(String));
    expect(viewed?.solutionViewedBeforeAccepted).toBe(true);
  });

  test('in a terminal it asks first; no shows nothing and records nothing', async () => {
    const io = askingIO(['n']);
    const { code, out } = await run(solution, ['933'], io);
    expect(code).toBe(1);
    expect(io.prompts[0]).toMatch(/^933 is not accepted yet/);
    expect(out).toBe('Not shown. For a nudge instead: npm run hint 933');
    expect(entry(p933.dir)).toBeUndefined();
  });

  test('after acceptance it is shown freely, and the first look is kept', async () => {
    setProgress({ [p933.dir]: { bestVerdict: 'accepted', attempts: 2 } });
    const io = askingIO([], true);
    const first = await run(solution, ['933'], io);
    expect(first.code).toBe(0);
    expect(io.prompts).toEqual([]);
    const seen = entry(p933.dir);
    expect(seen?.solutionViewedBeforeAccepted).toBe(false);
    await run(solution, ['933'], io);
    expect(entry(p933.dir)?.solutionViewed).toBe(seen?.solutionViewed);
  });

  test('a look before acceptance stays on record after it', async () => {
    setProgress({
      [p933.dir]: {
        bestVerdict: 'wrong-answer',
        attempts: 1,
        solutionViewed: '2026-01-01T00:00:00.000Z',
        solutionViewedBeforeAccepted: false,
      },
    });
    await run(solution, ['933', '--yes']);
    expect(entry(p933.dir)).toMatchObject({
      solutionViewed: '2026-01-01T00:00:00.000Z',
      solutionViewedBeforeAccepted: true,
    });
  });

  test('prose fits 80 columns; only lines of the reference itself may be wider', async () => {
    for (const problem of problems) {
      const { io } = await run(solution, [problem.id, '--yes']);
      const own = new Set(readFileSync(problem.referenceFile, 'utf8').split('\n'));
      for (const line of stripped(io.stdout)) {
        if (line.length > 80) expect(own.has(line), line).toBe(true);
      }
    }
  });

  test('comments are dimmed, code is not', () => {
    const tags = { ...makeStyle(false), dim: (s: string) => `<dim>${s}</dim>` };
    expect(paintSource('// a\nconst x = 1;\n/* b\n * c\n */\ny();\n/* d */\nz();\n', tags)).toEqual(
      [
        '<dim>// a</dim>',
        'const x = 1;',
        '<dim>/* b</dim>',
        '<dim> * c</dim>',
        '<dim> */</dim>',
        'y();',
        '<dim>/* d */</dim>',
        'z();',
      ],
    );
  });

  test('needs exactly one known problem', async () => {
    expect((await run(solution, [])).err).toMatch(/^error: name one problem: npm run solution/);
    expect((await run(solution, ['nope', '--yes'])).code).toBe(2);
  });
});

describe('missing learning material', () => {
  /** A copy of solutions/ without one of 933's files. */
  function without(file: string): void {
    const dir = scratchDir('tools-solutions');
    cpSync(SOLUTIONS_DIR, dir, { recursive: true });
    rmSync(path.join(dir, p933.dir, file));
    fake.solutionsDir = dir;
  }

  test.each([
    ['hint', hint, ['933'], 'hints.json', 'hints'],
    ['reset', reset, ['--all', '--yes'], 'stub.ts', 'pristine stub'],
    ['solution', solution, ['933', '--yes'], 'explanation.md', 'explanation'],
    ['solution', solution, ['933', '--yes'], 'solution.ts', 'reference'],
  ] as const)(
    '%s without %s: one line, exit 2, nothing changed',
    async (_, command, argv, file, what) => {
      without(file);
      writeFileSync(p362.stubFile, 'changed');
      const { code, err, out } = await run(command, [...argv]);
      expect(code).toBe(2);
      expect(err).toMatch(
        new RegExp(`^error: cannot read the ${what} of 933: .*${file} does not exist$`),
      );
      expect(err.split('\n')).toHaveLength(1);
      expect(out).toBe('');
      expect(existsSync(PROGRESS_FILE)).toBe(false);
      expect(readFileSync(p362.stubFile, 'utf8')).toBe('changed');
    },
  );

  test('in watch mode a hint that cannot be read is reported, and the watch goes on', async () => {
    without('hints.json');
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => {} });
    vi.spyOn(process, 'stdin', 'get').mockReturnValue(stdin as unknown as typeof process.stdin);
    const signals = {
      SIGINT: process.listeners('SIGINT'),
      SIGTERM: process.listeners('SIGTERM'),
    };
    try {
      const io = captureIO();
      io.interactive = true;
      const done = kata(['933'], io);
      while (!text(io.stdout).includes('Watching')) await new Promise((r) => setTimeout(r, 10));
      stdin.emit('data', 'h');
      while (io.stderr.length === 0) await new Promise((r) => setTimeout(r, 10));
      expect(io.stderr[0]).toMatch(/^error: cannot read the hints of 933/);
      stdin.emit('data', 'q');
      expect(await done).toBe(0);
    } finally {
      vi.restoreAllMocks();
      // Only the listeners kata added: the test runner has its own.
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        for (const listener of process.listeners(signal)) {
          if (!signals[signal].includes(listener)) process.off(signal, listener);
        }
      }
    }
  });
});

describe('list and grade mark a solve with hints', () => {
  test('list counts hints in the status, before and after a solve', async () => {
    setProgress({
      [p933.dir]: {
        bestVerdict: 'accepted',
        attempts: 1,
        hintsUsed: 2,
        followUpsPassed: 4,
        followUpsTotal: 4,
      },
      [p362.dir]: { hintsUsed: 1 },
      [problems[2]!.dir]: { bestVerdict: 'wrong-answer', attempts: 3, hintsUsed: 1 },
    });
    const io = captureIO();
    expect(await list([], io)).toBe(0);
    // Too long for the status column: it goes on under itself (all of it is there).
    expect(io.stdout[1]!.replace(/\s+/g, ' ')).toMatch(
      /933 .* Easy ✓ solved · 2 hints · follow-ups 4\/4$/,
    );
    expect(io.stdout[2]).toMatch(/362 .* Medium +not started · 1 hint$/);
    expect(io.stdout[3]!.replace(/\s+/g, ' ')).toMatch(/Wrong Answer · 3 attempts · 1 hint$/);
    expect(io.stdout[4]).toMatch(/not started$/);
  });

  test('a status too long for its column goes on under itself', async () => {
    setProgress({
      [p933.dir]: { bestVerdict: 'memory-limit-exceeded', attempts: 12, hintsUsed: 3 },
    });
    const io = captureIO();
    await list([], io);
    const [first, second] = io.stdout[1]!.split('\n');
    expect(first).toMatch(/Easy +Memory Limit Exceeded ·/);
    expect(second).toMatch(/^ {55}\S/);
    expect(stripAnsi(io.stdout[1]!).replace(/\s+/g, ' ')).toContain(
      'Memory Limit Exceeded · 12 attempts · 3 hints',
    );
    for (const line of stripped(io.stdout)) expect(line.length).toBeLessThanOrEqual(80);
  });

  test('grade stars an acceptance with hints, explains the star, and keeps the count', async () => {
    setProgress({ [p933.dir]: { hintsUsed: 2 } });
    fake.verdicts = ['accepted', 'accepted'];
    const io = captureIO();
    expect(await grade(['933', '362'], io)).toBe(0);
    const out = text(io.stdout);
    expect(out).toMatch(/^933 · Number of Recent Calls +Easy +Accepted\* +\d/m);
    expect(out).toMatch(/^362 · Design Hit Counter +Medium +Accepted +\d/m);
    expect(out).toContain('* solved with hints');
    for (const line of stripped(io.stdout)) expect(line.length).toBeLessThanOrEqual(80);
    expect(entry(p933.dir)).toMatchObject({ bestVerdict: 'accepted', hintsUsed: 2 });
  });

  test('grade: no star without hints, nor for an answer that is not accepted', async () => {
    setProgress({ [p933.dir]: { hintsUsed: 2 } });
    fake.verdicts = ['wrong-answer', 'accepted'];
    const io = captureIO();
    await grade(['933', '362'], io);
    expect(text(io.stdout)).not.toContain('*');
  });

  test('grade --dir: the solutions are not the learner’s, so their hints do not count', async () => {
    setProgress({ [p933.dir]: { hintsUsed: 2 } });
    fake.verdicts = ['accepted'];
    const dir = scratchDir('tools-grade');
    cpSync(fake.problemsDir, dir, { recursive: true });
    const io = captureIO();
    expect(await grade(['--dir', dir, '933'], io)).toBe(0);
    expect(text(io.stdout)).not.toContain('*');
  });
});

describe('grade and the untouched stub', () => {
  test('judging the stub as shipped records no attempt, and list still says not started', async () => {
    const io = captureIO();
    expect(await grade(['933'], io)).toBe(1);
    expect(text(io.stdout)).toMatch(/^933 .* Not Started /m);
    expect(entry(p933.dir)).toBeUndefined();
    const listed = captureIO();
    await list([], listed);
    expect(listed.stdout[1]).toMatch(/933 .* Easy +not started$/);
  });

  test('a file the learner changed is attempted, even if it still throws "Not implemented"', async () => {
    writeFileSync(p933.stubFile, `${readFileSync(p933.stubFile, 'utf8')}\n// thinking…\n`);
    await grade(['933'], captureIO());
    expect(entry(p933.dir)).toMatchObject({
      bestVerdict: 'not-started',
      lastVerdict: 'not-started',
      firstAttempted: expect.any(String),
    });
  });

  test('hints asked for before are kept, and no date is stamped by the stub', async () => {
    setProgress({ [p933.dir]: { hintsUsed: 1 } });
    const before = entry(p933.dir)!;
    await grade(['933'], captureIO());
    expect(entry(p933.dir)).toEqual({ ...before, lastVerdict: 'not-started' });
  });

  test('after a reset, a solved problem is shown solved, and where it stands now', async () => {
    const solvedAt = '2026-01-02T03:04:05.000Z';
    setProgress({
      [p933.dir]: {
        bestVerdict: 'accepted',
        lastVerdict: 'accepted',
        attempts: 2,
        firstAccepted: solvedAt,
        lastAttempted: solvedAt,
        followUpsPassed: 1,
        followUpsTotal: 1,
      },
    });
    await grade(['933'], captureIO());
    expect(entry(p933.dir)).toMatchObject({
      bestVerdict: 'accepted',
      lastVerdict: 'not-started',
      attempts: 2,
      lastAttempted: solvedAt,
    });
    const io = captureIO();
    await list([], io);
    expect(io.stdout[1]!.replace(/\s+/g, ' ')).toMatch(
      /933 .* Easy ✓ solved · now Not Started · follow-ups 1\/1$/,
    );
  });
});

describe('list: where the learner stands now', () => {
  test('solved once and broken since; better once and worse now; the same: said once', async () => {
    fake.verdicts = ['accepted', 'wrong-answer', 'wrong-answer', 'compile-error', 'runtime-error'];
    // Each a file of the learner's: the stub as shipped is not an attempt.
    for (const problem of problems) writeFileSync(problem.stubFile, '// mine\n');
    await grade(['933'], captureIO());
    await grade(['933', '362'], captureIO());
    await grade(['362', '346'], captureIO());
    expect(entry(p933.dir)).toMatchObject({ bestVerdict: 'accepted', lastVerdict: 'wrong-answer' });
    const io = captureIO();
    expect(await list([], io)).toBe(0);
    const rows = stripped(io.stdout)
      .join('\n')
      .split(/\n(?=\d )/);
    const flat = (row: string | undefined): string => row!.replace(/\s+/g, ' ');
    const row = (id: string): string => flat(rows.find((r) => r.split(/\s+/)[1] === id));
    expect(row('933')).toMatch(/933 .* Easy ✓ solved · now Wrong Answer · follow-ups 1\/1$/);
    expect(row('362')).toMatch(/362 .* Medium best Wrong Answer · now Compile Error · 2 attempts$/);
    expect(row('346')).toMatch(/346 .* Easy Runtime Error · 1 attempt$/);
    // A line breaks between the pieces of a status, never inside one ("now Wrong / Answer").
    expect(rows[1]!.split('\n').map((line) => line.trim())).toEqual([
      '1  933          Number of Recent Calls          Easy   ✓ solved ·',
      'now Wrong Answer ·',
      'follow-ups 1/1',
    ]);
    expect(rows[1]).not.toContain('\u00a0');
    for (const line of stripped(io.stdout)) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  test('a record written before the latest verdict was kept shows the best alone', async () => {
    setProgress({
      [p933.dir]: { bestVerdict: 'accepted', attempts: 1, followUpsPassed: 1, followUpsTotal: 2 },
      [p362.dir]: { bestVerdict: 'wrong-answer', attempts: 4 },
    });
    expect(entry(p933.dir)?.lastVerdict).toBeUndefined();
    const io = captureIO();
    await list([], io);
    expect(io.stdout[1]!.replace(/\s+/g, ' ')).toMatch(/Easy ✓ solved · follow-ups 1\/2$/);
    expect(io.stdout[2]).toMatch(/Medium +Wrong Answer · 4 attempts$/);
  });

  test('in colour, the news is yellow between the green of the solve', async () => {
    fake.verdicts = ['accepted', 'time-limit-exceeded'];
    writeFileSync(p933.stubFile, '// mine\n');
    await grade(['933'], captureIO());
    await grade(['933'], captureIO());
    const io = captureIO();
    io.style = makeStyle(true);
    await list([], io);
    const row = io.stdout[1]!;
    // Right after the green solve, the news in yellow (wrapped, maybe), then green again.
    const { green, yellow } = makeStyle(true);
    const [news, rest] = [yellow(' · now Time Limit Exceeded'), green(' · follow-ups 1/1')];
    expect(row.replace(/\s+/g, ' ')).toContain(`${green('✓ solved')}${news}${rest}`);
    expect(stripAnsi(row).replace(/\s+/g, ' ')).toContain('✓ solved · now Time Limit Exceeded ·');
    for (const line of stripped(io.stdout)) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});

describe('kata', () => {
  describe('--open', () => {
    const editorScript = (): { command: string; record: string } => {
      const dir = scratchDir('editor');
      const record = path.join(dir, 'opened.json');
      const script = path.join(dir, 'editor.mjs');
      writeFileSync(
        script,
        `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\n`,
      );
      return { command: `${process.execPath} ${script}`, record };
    };

    async function waitFor(file: string): Promise<string> {
      for (let i = 0; i < 200 && !existsSync(file); i++)
        await new Promise((r) => setTimeout(r, 25));
      return readFileSync(file, 'utf8');
    }

    test('starts $VISUAL with its own arguments and the stub, and carries on', async () => {
      const { command, record } = editorScript();
      const io = captureIO();
      openInEditor(p933.stubFile, io, { VISUAL: `  ${command}  --reuse-window `, EDITOR: 'vi' });
      expect(io.stdout[0]).toMatch(/^Opening\s/);
      expect(JSON.parse(await waitFor(record))).toEqual(['--reuse-window', p933.stubFile]);
    });

    test('falls back to $EDITOR', async () => {
      const { command, record } = editorScript();
      openInEditor(p933.stubFile, captureIO(), { VISUAL: ' ', EDITOR: command });
      expect(JSON.parse(await waitFor(record))).toEqual([p933.stubFile]);
    });

    test('with neither set it says how to set one, and is not an error', () => {
      const io = captureIO();
      openInEditor(p933.stubFile, io, {});
      expect(io.stdout).toEqual([
        '--open: set $VISUAL or $EDITOR to your editor (e.g. export VISUAL=code).',
      ]);
      expect(io.stderr).toEqual([]);
    });

    test('a terminal editor cannot open beside the judge: it says what to do instead', () => {
      const io = captureIO();
      openInEditor(p933.stubFile, io, { EDITOR: '/usr/bin/vim -p' });
      const said = text(io.stdout).replace(/\s+/g, ' ');
      expect(said).toContain('--open: /usr/bin/vim runs inside a terminal');
      expect(said).toContain('set $VISUAL to a window editor');
      for (const line of io.stdout.join('\n').split('\n'))
        expect(line.length).toBeLessThanOrEqual(80);
    });

    test('an editor that cannot be started is a warning', async () => {
      const io = captureIO();
      openInEditor(p933.stubFile, io, { VISUAL: 'no-such-editor-anywhere' });
      for (let i = 0; i < 200 && io.stderr.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(io.stderr[0]).toMatch(
        /^warning: could not start the editor "no-such-editor-anywhere": .*ENOENT/,
      );
    });

    test('kata --open uses the environment', async () => {
      const saved = { VISUAL: process.env.VISUAL, EDITOR: process.env.EDITOR };
      process.env.VISUAL = '';
      process.env.EDITOR = '';
      try {
        const io = captureIO();
        expect(await kata(['933', '--once', '--open'], io)).toBe(1);
        expect(io.stdout).toContain(
          '--open: set $VISUAL or $EDITOR to your editor (e.g. export VISUAL=code).',
        );
      } finally {
        Object.assign(process.env, saved);
        for (const [key, value] of Object.entries(saved))
          if (value === undefined) delete process.env[key];
      }
    });
  });

  describe('the h key in watch mode', () => {
    let stdin: PassThrough & { isTTY?: boolean; setRawMode?: (on: boolean) => void };
    const signals = {
      SIGINT: process.listeners('SIGINT'),
      SIGTERM: process.listeners('SIGTERM'),
    };

    beforeEach(() => {
      stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => {} });
      vi.spyOn(process, 'stdin', 'get').mockReturnValue(stdin as unknown as typeof process.stdin);
    });

    afterEach(() => {
      vi.restoreAllMocks();
      // Only the listeners kata added: the test runner has its own.
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        for (const listener of process.listeners(signal)) {
          if (!signals[signal].includes(listener)) process.off(signal, listener);
        }
      }
    });

    test('shows the next hint and records it, and the footer says so', async () => {
      const io = captureIO();
      io.interactive = true;
      const seen = (pattern: RegExp) =>
        new Promise<void>((resolve) => {
          const poll = (): void => {
            if (pattern.test(text(io.stdout))) resolve();
            else setTimeout(poll, 10);
          };
          poll();
        });
      const done = kata(['933'], io);
      await seen(/Watching/);
      expect(stripAnsi(text(io.stdout)).replace(/\s+/g, ' ')).toContain(
        'save to judge again · h for a hint · q or Ctrl-C to quit',
      );
      stdin.emit('data', 'h');
      await seen(/Hint 1\/4/);
      stdin.emit('data', 'h');
      await seen(/Hint 2\/4/);
      expect(text(io.stdout)).toContain('2 more to come: press h again for the next one.');
      stdin.emit('data', 'q');
      expect(await done).toBe(0);
      expect(entry(p933.dir)?.hintsUsed).toBe(2);
      // The stub's path is long here (a temporary folder); the learner's is problems/<dir>/…
      for (const line of stripped(io.stdout).filter((l) => !l.startsWith('Your solution:'))) {
        expect(line.length, line).toBeLessThanOrEqual(80);
      }
    });
  });
});
