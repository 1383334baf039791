// progress, quiz and new-problem run in-process: captured streams, answers fed as lists of lines,
// confirmations answered through `ask`, and new problems made in scratch folders.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

const previousStateDir = vi.hoisted(() => {
  // A state folder of its own: other test files record progress at the same time.
  const fs = process.getBuiltinModule('node:fs');
  const os = process.getBuiltinModule('node:os');
  const previous = process.env.KATA_STATE_DIR;
  process.env.KATA_STATE_DIR = fs.mkdtempSync(`${os.tmpdir()}/window-katas-pqn-state-`);
  return previous;
});

import { loadQuiz } from '../../harness/learner/learning.ts';
import { PROBLEMS_DIR, REPO_ROOT, SOLUTIONS_DIR, STATE_DIR } from '../../harness/paths.ts';
import { loadProblems } from '../../harness/judge/problems.ts';
import {
  emptyProgress,
  loadProgress,
  PROGRESS_FILE,
  saveProgress,
  type ProblemProgress,
  type Progress,
} from '../../harness/learner/progress.ts';
import {
  FILES,
  fill,
  MARKER,
  newProblem,
  titleFrom,
  type Roots,
} from '../../scripts/commands/new-problem.ts';
import { BACKUP_DIR, progress, when } from '../../scripts/commands/progress.ts';
import { parseAnswer, pickQuiz, quiz, shuffledOrder } from '../../scripts/commands/quiz.ts';
import { runCommand, type IO } from '../../scripts/lib/cli.ts';
import type { Asker } from '../../scripts/lib/confirm.ts';
import { readLines, toNextLine } from '../../scripts/lib/lines.ts';
import { captureIO, scratchDir } from '../helpers.ts';

afterAll(() => {
  process.env.KATA_STATE_DIR = previousStateDir;
});

const problems = loadProblems();
const DIR933 = '933-number-of-recent-calls';
const DIR362 = '362-design-hit-counter';
const day = (n: number, hour = 0): string => new Date(Date.UTC(2026, 0, n, hour)).toISOString();
const text = (lines: string[]): string => lines.join('\n');

/** Every printed line fits a terminal of 80 columns. */
function expectNarrow(lines: string[]): void {
  const wide = text(lines)
    .split('\n')
    .filter((line) => line.length > 80);
  expect(wide).toEqual([]);
}

function entry(fields: Partial<ProblemProgress> = {}): ProblemProgress {
  return {
    firstAttempted: day(1),
    firstAccepted: null,
    lastAttempted: day(1),
    attempts: 1,
    bestVerdict: 'wrong-answer',
    followUpsPassed: 0,
    followUpsTotal: 2,
    ...fields,
  };
}

function record(problems: Record<string, ProblemProgress>): Progress {
  const progress: Progress = { version: 1, problems };
  saveProgress(progress);
  return progress;
}

/** Runs a command as the entry point does: a UsageError is one line on stderr and exit code 2. */
async function run(
  command: (argv: string[], io: IO & Asker) => Promise<number>,
  argv: string[],
  io: IO & Asker = captureIO(),
) {
  const captured = io as ReturnType<typeof captureIO>;
  return { code: await runCommand((io) => command(argv, io), io), io: captured };
}

beforeEach(() => {
  expect(STATE_DIR).toMatch(/window-katas-pqn-state-/);
  rmSync(PROGRESS_FILE, { force: true });
  rmSync(BACKUP_DIR, { recursive: true, force: true });
});

describe('progress', () => {
  test('with nothing recorded, says where to start', async () => {
    const { code, io } = await run(progress, []);
    expect(code).toBe(0);
    expect(io.stdout).toEqual(['Nothing recorded yet. Start with: npm run kata']);
  });

  test('sums up, then gives one line per problem in ladder order', async () => {
    record({
      [DIR933]: entry({
        firstAttempted: day(2, 9),
        firstAccepted: day(3),
        lastAttempted: day(4, 18),
        attempts: 3,
        bestVerdict: 'accepted',
        followUpsPassed: 2,
        followUpsTotal: 3,
        hintsUsed: 2,
        solutionViewed: day(3),
        solutionViewedBeforeAccepted: true,
        quiz: { best: 5, last: 4, total: 6, at: day(4) },
      }),
      [DIR362]: entry({
        firstAttempted: day(2),
        lastAttempted: day(2),
        attempts: 4,
        followUpsPassed: 1,
        followUpsTotal: 4,
        hintsUsed: 1,
      }),
      // Imported from a fork with a problem this one does not have.
      'old-problem': entry({ firstAttempted: day(1, 8), lastAttempted: day(5, 7) }),
    });
    const { code, io } = await run(progress, []);
    expect(code).toBe(0);
    expect(io.stdout.slice(0, 2)).toEqual([
      [
        // Out of the whole ladder, not only the problems recorded.
        `Solved 1/${problems.length} · follow-ups passed 3/7`,
        'Hints used: 3 · solutions looked at: 1 (1 before solving)',
        `Quizzes: 1/${problems.length} taken · best scores 5/6 · latest 4`,
        'First activity 2026-01-01 08:00 UTC · last 2026-01-05 07:00 UTC',
      ].join('\n'),
      '',
    ]);
    const out = text(io.stdout);
    expect(out).toMatch(/^problem +verdict +tries f-ups hints {2}quiz$/m);
    expect(out).toMatch(/^933 · Number of Recent Calls +Accepted +3 +2\/3 +2 +5\/6$/m);
    expect(out).toMatch(/^362 · Design Hit Counter +Wrong Answer +4 +1\/4 +1 +-$/m);
    expect(out).toMatch(/^346 · Moving Average from Data S… not started$/m);
    expect(out).toMatch(/^token-bucket +not started$/m);
    expect(out).toMatch(/^sliding-window-log-limiter +not started$/m);
    expect(out).toContain('Also recorded, not in this ladder: old-problem');
    // Every id is shown whole, first on its row, so that each can be told apart and copied.
    const ids = new Set(problems.map((p) => p.id));
    const rows = io.stdout.filter((line) => ids.has(line.split(' ')[0] as string));
    expect(rows.map((row) => row.split(' ')[0])).toEqual(problems.map((p) => p.id));
    expectNarrow(io.stdout);
    expect(io.stderr).toEqual([]);
  });

  test('a problem touched only by a hint or a quiz shows as Not Started', async () => {
    record({ [DIR933]: entry({ attempts: 0, bestVerdict: 'not-started', hintsUsed: 1 }) });
    const { io } = await run(progress, []);
    expect(text(io.stdout)).toMatch(/^933 · Number of Recent Calls +Not Started +0 +0\/2 +1 +-$/m);
    expect(text(io.stdout)).toContain('Quizzes: none taken yet');
  });

  test('dates that are not ISO times are shown as they are', () => {
    expect(when('2026-01-05T14:03:09.123Z')).toBe('2026-01-05 14:03 UTC');
    expect(when('yesterday')).toBe('yesterday');
  });

  test('--export writes the record to a file that --import reads back', async () => {
    const saved = record({ [DIR933]: entry({ bestVerdict: 'accepted', firstAccepted: day(1) }) });
    const file = path.join(scratchDir('export'), 'mine.json');
    const { code, io } = await run(progress, ['--export', file]);
    expect(code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(saved);
    expect(io.stdout[0]).toBe(`Exported the progress on 1 problem to ${file}`);

    rmSync(PROGRESS_FILE);
    const back = await run(progress, ['--import', file]);
    expect(back.code).toBe(0);
    expect(back.io.stdout[0]).toMatch(/: 1 problem new, 0 merged/);
    expect(loadProgress(() => {})).toEqual(saved);
  });

  test('--export of an empty record, and refusals: into problems/, or where it cannot write', async () => {
    const dir = scratchDir('export');
    const empty = await run(progress, ['--export', path.join(dir, 'none.json')]);
    expect(empty.io.stdout[0]).toMatch(/on 0 problems to/);
    expect(JSON.parse(readFileSync(path.join(dir, 'none.json'), 'utf8'))).toEqual(emptyProgress());

    const inside = path.join(PROBLEMS_DIR, DIR933, 'progress.json');
    const sacred = await run(progress, ['--export', inside]);
    expect(sacred.code).toBe(2);
    expect(sacred.io.stderr).toEqual([
      expect.stringMatching(/^error: will not write into .*problems\/: choose another file$/),
    ]);
    expect(existsSync(inside)).toBe(false);

    const nowhere = await run(progress, ['--export', path.join(dir, 'missing', 'x.json')]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.io.stderr[0]).toMatch(/^error: cannot write .*x\.json: no such file or folder$/);
    const folder = await run(progress, ['--export', dir]);
    expect(folder.io.stderr[0]).toMatch(/: it is a folder$/);
  });

  test('--import merges: earliest first acceptance, best verdict, nothing lost', async () => {
    record({
      [DIR933]: entry({
        firstAttempted: day(3),
        firstAccepted: day(5),
        lastAttempted: day(6),
        attempts: 4,
        bestVerdict: 'accepted',
        hintsUsed: 1,
      }),
      [DIR362]: entry({ firstAttempted: day(2), lastAttempted: day(2), bestVerdict: 'accepted' }),
    });
    const theirs: Progress = {
      version: 1,
      problems: {
        [DIR933]: entry({
          firstAttempted: day(1),
          firstAccepted: day(2),
          lastAttempted: day(4),
          attempts: 2,
          // Accepted there, broken since (as its first acceptance says; a record agrees with itself).
          bestVerdict: 'accepted',
          lastVerdict: 'wrong-answer',
          quiz: { best: 3, last: 3, total: 6, at: day(4) },
        }),
        // A worse verdict elsewhere does not undo an acceptance here.
        [DIR362]: entry({
          firstAttempted: day(1),
          lastAttempted: day(1),
          bestVerdict: 'compile-error',
        }),
        'token-bucket': entry({ bestVerdict: 'time-limit-exceeded' }),
      },
    };
    const file = path.join(scratchDir('import'), 'theirs.json');
    writeFileSync(file, JSON.stringify(theirs));
    const { code, io } = await run(progress, ['--import', file]);
    expect(code).toBe(0);
    expect(io.stdout).toEqual([
      `Imported ${file}: 1 problem new, 2 merged (earliest dates, best verdicts and scores kept).`,
    ]);
    const merged = loadProgress(() => {}).problems;
    expect(merged[DIR933]).toMatchObject({
      firstAttempted: day(1),
      firstAccepted: day(2),
      lastAttempted: day(6),
      attempts: 4,
      bestVerdict: 'accepted',
      hintsUsed: 1,
      quiz: { best: 3, last: 3, total: 6 },
    });
    expect(merged[DIR362]).toMatchObject({ firstAttempted: day(1), bestVerdict: 'accepted' });
    expect(merged['token-bucket']?.bestVerdict).toBe('time-limit-exceeded');
  });

  test.each([
    ['a missing file', null, /^error: cannot read .*: no such file or folder$/],
    ['a folder', 'folder', /^error: cannot read .*: it is a folder$/],
    ['text that is not JSON', '{ oops', /^error: .* is not valid JSON \(.+\)$/],
    ['JSON of another shape', '{"version":1,"problems":{"933":{}}}', /is not a progress record/],
    ['an array', '[]', /is not a progress record/],
    [
      'an entry without its follow-up counts',
      `{"version":1,"problems":{"x":{"attempts":1,"firstAttempted":"a","lastAttempted":"b","bestVerdict":"accepted"}}}`,
      /is not a progress record/,
    ],
    [
      'a quiz score that is not a number',
      JSON.stringify({
        version: 1,
        problems: { x: { ...entry(), quiz: { best: '5', last: 5, total: 6, at: 'x' } } },
      }),
      /is not a progress record/,
    ],
    [
      'a quiz that is null',
      JSON.stringify({ version: 1, problems: { x: { ...entry(), quiz: null } } }),
      /is not a progress record/,
    ],
  ])('--import of %s is refused in one line, and nothing changes', async (_, content, message) => {
    record({ [DIR933]: entry() });
    const before = readFileSync(PROGRESS_FILE, 'utf8');
    const dir = scratchDir('import');
    const file = path.join(dir, 'theirs.json');
    if (content === 'folder') mkdirSync(file);
    else if (content !== null) writeFileSync(file, content);
    const { code, io } = await run(progress, ['--import', file]);
    expect(code).toBe(2);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toMatch(message);
    expect(io.stdout).toEqual([]);
    expect(readFileSync(PROGRESS_FILE, 'utf8')).toBe(before);
  });

  test('--reset with nothing recorded has nothing to do', async () => {
    const { code, io } = await run(progress, ['--reset']);
    expect(code).toBe(0);
    expect(io.stdout).toEqual(['No progress recorded: nothing to reset.']);
  });

  test('--reset without a terminal needs --yes, and changes nothing without it', async () => {
    record({ [DIR933]: entry() });
    const before = readFileSync(PROGRESS_FILE, 'utf8');
    const { code, io } = await run(progress, ['--reset']);
    expect(code).toBe(2);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toMatch(
      /^error: no terminal to confirm in: pass --yes to clear your progress/,
    );
    expect(readFileSync(PROGRESS_FILE, 'utf8')).toBe(before);
    expect(existsSync(BACKUP_DIR)).toBe(false);
  });

  test('--reset in a terminal asks, and a no leaves everything as it was', async () => {
    record({ [DIR933]: entry() });
    const before = readFileSync(PROGRESS_FILE, 'utf8');
    const asked: string[] = [];
    const io = {
      ...captureIO(),
      interactive: true,
      ask: async (prompt: string) => (asked.push(prompt), 'n'),
    };
    const { code } = await run(progress, ['--reset'], io);
    expect(code).toBe(1);
    expect(asked).toEqual(['Clear all your progress? (a copy is kept first) [y/N] ']);
    expect(io.stdout).toEqual(['Nothing changed.']);
    expect(readFileSync(PROGRESS_FILE, 'utf8')).toBe(before);
  });

  test('--reset keeps a backup first, says where, and the backup can be imported back', async () => {
    const saved = record({ [DIR933]: entry({ bestVerdict: 'accepted', firstAccepted: day(1) }) });
    const io = { ...captureIO(), interactive: true, ask: async () => 'y' };
    const { code } = await run(progress, ['--reset'], io);
    expect(code).toBe(0);
    expect(existsSync(PROGRESS_FILE)).toBe(false);
    const backups = readdirSync(BACKUP_DIR);
    expect(backups).toEqual([
      expect.stringMatching(/^progress-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.json$/),
    ]);
    const backup = path.join(BACKUP_DIR, backups[0]!);
    expect(JSON.parse(readFileSync(backup, 'utf8'))).toEqual(saved);
    expect(io.stdout[0]).toBe(`Progress cleared. A copy of it is kept in\n  ${backup}`);
    expect(io.stdout[1]).toBe(`To bring it back:\n  npm run progress -- --import ${backup}`);

    // --yes needs no terminal; a second reset within the same second gets a name of its own.
    record({ [DIR362]: entry() });
    expect((await run(progress, ['--reset', '--yes'])).code).toBe(0);
    record({ [DIR362]: entry() });
    expect((await run(progress, ['--reset', '-y'])).code).toBe(0);
    expect(readdirSync(BACKUP_DIR)).toHaveLength(3);

    await run(progress, ['--import', backup]);
    expect(loadProgress(() => {})).toEqual(saved);
  });

  test.each([
    [['--export', 'a.json', '--import', 'b.json'], /one of --export, --import and --reset/],
    [['--reset', '--import', 'b.json'], /one of --export, --import and --reset/],
    [['--yes'], /--yes goes with --reset/],
    [['933'], /unexpected argument "933"/],
    [['--export'], /--export/],
    [['--frobnicate'], /frobnicate/],
  ])('%j is a usage error', async (argv, message) => {
    const { code, io } = await run(progress, argv);
    expect(code).toBe(2);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toMatch(message);
  });
});

describe('parseAnswer', () => {
  test.each([
    ['a', 0],
    ['B', 1],
    [' c ', 2],
    ['d)', 3],
    ['1', 0],
    ['4', 3],
    ['e', undefined],
    ['5', undefined],
    ['0', undefined],
    ['', undefined],
    ['ab', undefined],
    ['-1', undefined],
    ['2.5', undefined],
  ])('%j names choice %j of four', (answer, index) => {
    expect(parseAnswer(answer, 4)).toBe(index);
  });
});

describe('pickQuiz', () => {
  const quizOf = (best: number, total = 6) =>
    entry({ quiz: { best, last: best, total, at: day(1) } });

  test('the first problem whose quiz was never completed', () => {
    expect(pickQuiz(problems, emptyProgress())?.dir).toBe(DIR933);
    const progress: Progress = { version: 1, problems: { [DIR933]: quizOf(6), [DIR362]: entry() } };
    expect(pickQuiz(problems, progress)?.dir).toBe(DIR362);
  });

  test('with every quiz done, the lowest best score; the earlier on a tie', () => {
    const progress: Progress = {
      version: 1,
      problems: Object.fromEntries(problems.map((p) => [p.dir, quizOf(5)])),
    };
    progress.problems[problems[3]!.dir] = quizOf(4, 8);
    expect(pickQuiz(problems, progress)?.dir).toBe(problems[3]!.dir);
    progress.problems[problems[4]!.dir] = quizOf(3, 6);
    expect(pickQuiz(problems, progress)?.dir).toBe(problems[3]!.dir);
    progress.problems[problems[5]!.dir] = quizOf(0, 0);
    expect(pickQuiz(problems, progress)?.dir).toBe(problems[5]!.dir);
  });

  test('nothing when no problem has a quiz', () => {
    const fake = { ...problems[0]!, suiteFile: path.join(scratchDir('no-quiz'), 'suite.ts') };
    expect(pickQuiz([fake], emptyProgress())).toBeUndefined();
  });
});

describe('quiz', () => {
  const questions = loadQuiz(problems[0]!);
  // The choices are shuffled on every run: a fixed source fixes the order (quiz-choices.test.ts
  // checks the shuffling itself). Each question's order is drawn in turn from the source.
  const fixed = (): (() => number) => {
    let n = 0;
    return () => ((n = (n * 7 + 3) % 11), n / 11);
  };
  const drawn = fixed();
  const orders = questions.map((q) => shuffledOrder(q.choices.length, drawn));
  /** The letters under which the file's choices `answers` are shown, question by question. */
  const letters = (answers: number[]): string[] =>
    answers.map((choice, i) => 'abcdefgh'[orders[i]!.indexOf(choice)] as string);
  const rightAnswers = letters(questions.map((q) => q.answer));

  test('asks every question, tells right from wrong with the reason, and records the score', async () => {
    const { code, io } = await run((argv, io) => quiz(argv, io, rightAnswers, fixed()), ['933']);
    expect(code).toBe(0);
    const out = text(io.stdout);
    expect(io.stdout[0]).toBe(
      `Quiz · 933 · Number of Recent Calls · ${questions.length} questions`,
    );
    expect(io.stdout[1]).toBe('Not solved yet: the questions talk about how the solution works.');
    expect(out).toContain(`Question 1 of ${questions.length}`);
    expect(out).toMatch(/^ {2}a\) /m);
    expect(out).toMatch(/^ {2}d\) /m);
    expect(out).toContain('Your answer (a–d or 1–4):');
    expect(out.match(/✓ Right\./g)).toHaveLength(questions.length);
    expect(out).toContain(questions[0]!.why.split(' ').slice(0, 5).join(' '));
    expect(io.stdout.at(-1)).toBe(
      `\nScore: ${questions.length}/${questions.length} · best so far ${questions.length}/${questions.length}`,
    );
    expectNarrow(io.stdout);
    const recorded = loadProgress(() => {}).problems[DIR933];
    expect(recorded).toMatchObject({
      attempts: 0,
      bestVerdict: 'not-started',
      quiz: { best: questions.length, last: questions.length, total: questions.length },
    });
  });

  test('asks again after an answer that names no choice; letters, numbers, any case', async () => {
    record({
      [DIR933]: entry({
        bestVerdict: 'accepted',
        quiz: { best: 2, last: 2, total: 6, at: day(1) },
      }),
    });
    const wrong = questions.map((q) => (q.answer + 1) % q.choices.length);
    // The first answer is typed twice badly, then as a number; the rest as upper-case letters.
    const lines = [
      'x',
      '',
      String(orders[0]!.indexOf(wrong[0]!) + 1),
      ...letters(wrong)
        .slice(1)
        .map((l) => l.toUpperCase()),
    ];
    lines[3] = `${lines[3]})`;
    const { code, io } = await run((argv, io) => quiz(argv, io, lines, fixed()), ['933']);
    expect(code).toBe(0);
    const out = text(io.stdout);
    expect(out).not.toContain('Not solved yet');
    expect(out).toContain('"x" is not one of the choices: answer with a–d or 1–4.');
    expect(out).toContain('"" is not one of the choices');
    // Each time the letter the right choice has on screen, not in the file.
    const told = [...out.matchAll(/✗ Wrong: the answer is ([a-d])\)\./g)].map((m) => m[1]);
    expect(told).toEqual(rightAnswers);
    expect(told).not.toEqual(questions.map((q) => 'abcd'[q.answer]));
    // A worse score is the latest, but the best stays.
    expect(io.stdout.at(-1)).toBe(
      `\nScore: 0/${questions.length} · best so far 2/${questions.length}`,
    );
    expect(loadProgress(() => {}).problems[DIR933]).toMatchObject({
      bestVerdict: 'accepted',
      quiz: { best: 2, last: 0, total: questions.length },
    });
  });

  test('input that ends too soon: says how far it got, records nothing, exit 1', async () => {
    const { code, io } = await run((argv, io) => quiz(argv, io, rightAnswers.slice(0, 2)), ['933']);
    expect(code).toBe(1);
    expect(io.stderr).toEqual([
      `The input ended at question 3 of ${questions.length} (2 answered): no score recorded.`,
    ]);
    expect(existsSync(PROGRESS_FILE)).toBe(false);
  });

  test('takes its lines from an async iterable or a reader function too', async () => {
    async function* typed(): AsyncGenerator<string> {
      for (const answer of rightAnswers) yield answer;
    }
    expect((await run((argv, io) => quiz(argv, io, typed()), ['933'])).code).toBe(0);
    const queue = [...rightAnswers];
    const reader = async (): Promise<string | null> => queue.shift() ?? null;
    expect((await run((argv, io) => quiz(argv, io, reader), ['933'])).code).toBe(0);
  });

  test('without a problem named, the first quiz never completed', async () => {
    record({ [DIR933]: entry({ quiz: { best: 1, last: 1, total: 6, at: day(1) } }) });
    // 362 is not solved, so without a terminal it takes --yes (quiz-choices.test.ts: the asking).
    const { io } = await run((argv, io) => quiz(argv, io, []), ['--yes']);
    expect(io.stdout[0]).toMatch(/^Quiz · 362 · Design Hit Counter · \d+ questions$/);
  });

  test('every quiz shown fits 80 columns', async () => {
    for (const problem of problems) {
      const answers = loadQuiz(problem).map(() => 'a');
      const { code, io } = await run((argv, io) => quiz(argv, io, answers), [problem.dir]);
      expect(code, problem.dir).toBe(0);
      expectNarrow(io.stdout);
    }
  });

  test('an unknown problem, or two of them, is a usage error', async () => {
    const unknown = await run((argv, io) => quiz(argv, io, []), ['nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.io.stderr[0]).toMatch(/^error: Unknown problem "nope"/);
    const two = await run((argv, io) => quiz(argv, io, []), ['933', '362']);
    expect(two.code).toBe(2);
    expect(two.io.stderr).toEqual([
      'error: unexpected argument "362": npm run quiz takes [problem] only',
    ]);
  });
});

describe('readLines', () => {
  test('queues lines from a pipe, waits for the next one, and ends with null', async () => {
    const input = new PassThrough();
    const reader = readLines(input);
    input.write('first\nsecond\r\nthi');
    expect(await reader.next()).toBe('first');
    expect(await reader.next()).toBe('second');
    const waiting = reader.next();
    input.write('rd\n');
    expect(await waiting).toBe('third');
    const last = reader.next();
    input.end('no newline');
    expect(await last).toBe('no newline');
    expect(await reader.next()).toBeNull();
    expect(await reader.next()).toBeNull();
  });

  test('close() ends the reading: whoever waits gets null', async () => {
    const input = new PassThrough();
    const reader = readLines(input);
    const waiting = reader.next();
    reader.close();
    expect(await waiting).toBeNull();
  });

  test('toNextLine reads lists, async iterables and functions alike', async () => {
    const fromList = toNextLine(['a', 'b']);
    expect([await fromList(), await fromList(), await fromList(), await fromList()]).toEqual([
      'a',
      'b',
      null,
      null,
    ]);
    async function* two(): AsyncGenerator<string> {
      yield 'x';
      yield 'y';
    }
    const fromAsync = toNextLine(two());
    expect([await fromAsync(), await fromAsync(), await fromAsync()]).toEqual(['x', 'y', null]);
    const fn = async (): Promise<string | null> => 'same';
    expect(toNextLine(fn)).toBe(fn);
  });
});

describe('new-problem', () => {
  let roots: Roots;

  beforeEach(() => {
    const base = scratchDir('new-problem');
    roots = { problems: path.join(base, 'problems'), solutions: path.join(base, 'solutions') };
    // Files are listed relative to where the command runs, as they would be in the repository.
    process.chdir(base);
    mkdirSync(roots.problems);
    mkdirSync(path.join(roots.solutions, 'token-bucket'), { recursive: true });
    writeFileSync(
      path.join(roots.solutions, 'token-bucket', 'problem.json'),
      readFileSync(path.join(SOLUTIONS_DIR, 'token-bucket', 'problem.json')),
    );
  });

  afterEach(() => {
    process.chdir(REPO_ROOT);
    rmSync(path.dirname(roots.problems), { recursive: true, force: true });
  });

  const make = (argv: string[]) => run((argv, io) => newProblem(argv, io, roots), argv);

  test('makes every file from its template, next in the ladder, and says what to do next', async () => {
    const { code, io } = await make(['1234-sliding-window-log', '--class', 'SlidingWindowLog']);
    expect(code).toBe(0);
    const dir = '1234-sliding-window-log';
    const made = FILES.map(([root, file]) => path.join(roots[root], dir, file));
    for (const file of made) {
      const content = readFileSync(file, 'utf8');
      expect(content, file).toContain(MARKER);
      expect(content, file).not.toMatch(/\{\{|\}\}/);
    }
    const meta = JSON.parse(readFileSync(path.join(roots.solutions, dir, 'problem.json'), 'utf8'));
    // Next after the one problem in the scratch ladder, token-bucket.
    const next =
      (
        JSON.parse(
          readFileSync(path.join(SOLUTIONS_DIR, 'token-bucket', 'problem.json'), 'utf8'),
        ) as { order: number }
      ).order + 1;
    expect(meta).toMatchObject({
      title: 'Sliding Window Log',
      difficulty: 'Medium',
      className: 'SlidingWindowLog',
      order: next,
    });
    const stub = readFileSync(path.join(roots.problems, dir, 'solution.ts'), 'utf8');
    expect(readFileSync(path.join(roots.solutions, dir, 'stub.ts'), 'utf8')).toBe(stub);
    expect(stub).toContain('export class SlidingWindowLog {');
    expect(stub).toContain("throw new Error('Not implemented: SlidingWindowLog.method');");
    expect(readFileSync(path.join(roots.problems, dir, 'README.md'), 'utf8')).toMatch(
      /^# 1234 · Sliding Window Log\n\n\*\*Medium\*\* · the idea: /,
    );
    expect(io.stdout[0]).toBe(`Created 1234 · Sliding Window Log (ladder position ${next}):`);
    expect(io.stdout.slice(1, 1 + made.length)).toEqual(
      FILES.map(([root, file]) => `  ${path.join(root, dir, file)}`),
    );
    expect(text(io.stdout)).toContain(`Next steps (each ${MARKER} marks something to write):`);
    expect(text(io.stdout)).toMatch(/ {2}6\. npm test: it fails while any/);
    expectNarrow(io.stdout);
  });

  test('--function makes a function problem: its stub, reference, suite and problem.json say so', async () => {
    const dir = '239-window-max';
    const { code } = await make([dir, '--function', 'maxSlidingWindow']);
    expect(code).toBe(0);
    for (const [root, file] of FILES) {
      const content = readFileSync(path.join(roots[root], dir, file), 'utf8');
      expect(content, file).toContain(MARKER);
      expect(content, file).not.toMatch(/\{\{|\}\}|class /);
    }
    const meta = JSON.parse(readFileSync(path.join(roots.solutions, dir, 'problem.json'), 'utf8'));
    expect(meta).toMatchObject({ functionName: 'maxSlidingWindow' });
    expect(meta.className).toBeUndefined();
    const stub = readFileSync(path.join(roots.problems, dir, 'solution.ts'), 'utf8');
    expect(stub).toContain('export function maxSlidingWindow(');
    expect(stub).toContain("throw new Error('Not implemented: maxSlidingWindow');");
    const suite = readFileSync(path.join(roots.solutions, dir, 'suite.ts'), 'utf8');
    expect(suite).toContain("exports: 'function',");
  });

  test.each([
    [['w', '--function', 'W'], /"W" is not a function name in camelCase/],
    [['w', '--function', 'f', '--class', 'W'], /--function goes alone/],
    [['w', '--function', 'f', '--limiter'], /--function goes alone/],
  ])('%j is a usage error', async (argv, message) => {
    const { code, io } = await make(argv);
    expect(code).toBe(2);
    expect(io.stderr[0]).toMatch(message);
    expect(readdirSync(roots.problems)).toEqual([]);
  });

  test('--title and --difficulty; a title with quotes stays valid JSON; an empty ladder starts at 1', async () => {
    rmSync(path.join(roots.solutions, 'token-bucket'), { recursive: true });
    const title = 'The "Leaky" Bucket \\ Queue';
    const argv = [
      'leaky-bucket',
      '--class',
      'LeakyBucket',
      '--title',
      title,
      '--difficulty',
      'Hard',
    ];
    expect((await make(argv)).code).toBe(0);
    const meta = JSON.parse(
      readFileSync(path.join(roots.solutions, 'leaky-bucket', 'problem.json'), 'utf8'),
    );
    expect(meta).toMatchObject({ title, difficulty: 'Hard', order: 1 });
    expect(readFileSync(path.join(roots.problems, 'leaky-bucket', 'README.md'), 'utf8')).toMatch(
      /^# leaky-bucket · The "Leaky" Bucket \\ Queue\n/,
    );
  });

  test.each([
    [[], /name the new problem's folder: npm run new-problem -- <dir> --class <ClassName>/],
    [['Sliding-Window'], /"Sliding-Window" is not a folder name in lower-case kebab case/],
    [['sliding_window'], /is not a folder name/],
    [['sliding-'], /is not a folder name/],
    [['--class', 'W', '--', '-sliding'], /"-sliding" is not a folder name/],
    [['sliding--window'], /is not a folder name/],
    [['sliding-window'], /name the class with --class \(or a function with --function\)/],
    [
      ['sliding-window', '--class', 'slidingWindow'],
      /"slidingWindow" is not a class name in PascalCase/,
    ],
    [['sliding-window', '--class', 'Sliding-Window'], /is not a class name/],
    [['sliding-window', '--class', '1Window'], /is not a class name/],
    [
      ['sliding-window', '--class', 'W', '--difficulty', 'easy'],
      /--difficulty must be one of Easy, Medium, Hard/,
    ],
    [['sliding-window', 'extra', '--class', 'W'], /unexpected argument "extra"/],
    [['sliding-window', '--klass', 'W'], /klass/],
  ])('%j is a usage error, and nothing is made', async (argv, message) => {
    const { code, io } = await make(argv);
    expect(code).toBe(2);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toMatch(message);
    expect(readdirSync(roots.problems)).toEqual([]);
    expect(readdirSync(roots.solutions)).toEqual(['token-bucket']);
  });

  test('a folder that exists already, in problems/ or solutions/, is left alone', async () => {
    const mine = path.join(roots.problems, 'sliding-window');
    mkdirSync(mine);
    writeFileSync(path.join(mine, 'solution.ts'), 'my work');
    const first = await make(['sliding-window', '--class', 'W']);
    expect(first.code).toBe(2);
    expect(first.io.stderr).toEqual(['error: problems/sliding-window already exists']);
    expect(readdirSync(mine)).toEqual(['solution.ts']);
    const second = await make(['token-bucket', '--class', 'TokenBucket']);
    expect(second.io.stderr[0]).toMatch(/solutions\/token-bucket already exists$/);
  });

  test('if a file cannot be made, what was made is taken back', async () => {
    // A link to nowhere: not there as far as existsSync knows, yet no folder can be made in its place.
    symlinkSync(path.join(roots.solutions, 'nowhere', 'deeper'), path.join(roots.solutions, 'w'));
    const { code, io } = await make(['w', '--class', 'W']);
    expect(code).toBe(2);
    expect(io.stderr).toEqual([
      expect.stringMatching(
        /^error: could not make solutions\/w\/problem\.json \(.+\), so nothing was kept$/,
      ),
    ]);
    expect(readdirSync(roots.problems)).toEqual([]);
    expect(readdirSync(roots.solutions)).toEqual(['token-bucket']);
  });

  test('fill and titleFrom', () => {
    expect(fill('{{A}}-{{A}} {{B}}', { A: 'x', B: '"q"' })).toBe('x-x "q"');
    expect(fill('"{{B}}"', { B: 'say "hi"' }, true)).toBe('"say \\"hi\\""');
    expect(() => fill('{{MISSING}}', {})).toThrow('unknown placeholder {{MISSING}}');
    expect(titleFrom('1234-sliding-window-log')).toBe('Sliding Window Log');
    expect(titleFrom('token-bucket')).toBe('Token Bucket');
    expect(titleFrom('42')).toBe('42');
  });
});
