// Bad input gets a clear line: a problem named many times is judged once; an argument of any size
// or content is echoed cut and escaped; an imported record with out-of-range numbers or absurd dates
// is refused, and nothing changes.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { JudgeOptions } from '../../harness/judge/judge.ts';
import type { ProblemReport } from '../../harness/judge/outcome.ts';
import { loadProblems } from '../../harness/judge/problems.ts';
import {
  checkRecord,
  emptyProgress,
  PROGRESS_FILE,
  saveProgress,
  type ProblemProgress,
} from '../../harness/learner/progress.ts';
import { grade } from '../../scripts/commands/grade.ts';
import { hint } from '../../scripts/commands/hint.ts';
import { newProblem } from '../../scripts/commands/new-problem.ts';
import { progress } from '../../scripts/commands/progress.ts';
import { quiz } from '../../scripts/commands/quiz.ts';
import { parse, resolveProblems, runCommand, type IO } from '../../scripts/lib/cli.ts';
import type { Asker } from '../../scripts/lib/confirm.ts';
import { captureIO, scratchDir } from '../helpers.ts';

const fake = vi.hoisted(() => {
  const fs = process.getBuiltinModule('node:fs');
  const os = process.getBuiltinModule('node:os');
  const previousStateDir = process.env.KATA_STATE_DIR;
  process.env.KATA_STATE_DIR = fs.mkdtempSync(`${os.tmpdir()}/window-katas-safety-input-`);
  return { previousStateDir, judged: [] as string[] };
});

vi.mock('../../harness/judge/judge.ts', () => ({
  releaseSlot: () => {},
  judge: async (options: JudgeOptions): Promise<ProblemReport> => {
    fake.judged.push(options.problem.dir);
    return {
      dir: options.problem.dir,
      verdict: 'wrong-answer',
      cases: [],
      followUps: { passed: 0, total: 1 },
      output: '',
      ms: 1,
    };
  },
}));

afterAll(() => {
  process.env.KATA_STATE_DIR = fake.previousStateDir;
});

beforeEach(() => {
  fake.judged = [];
  saveProgress(emptyProgress());
});

const problems = loadProblems();
// eslint-disable-next-line no-control-regex -- finding raw control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const HUGE = `${'x'.repeat(100_000)}\x1b[2J`;

async function run(command: (argv: string[], io: IO & Asker) => Promise<number>, argv: string[]) {
  const io = captureIO();
  const code = await runCommand((i) => command(argv, i), io);
  return { code, out: io.stdout.join('\n'), err: io.stderr };
}

describe('a problem named more than once is judged once', () => {
  test('by number, slug and folder, in the order first named', async () => {
    const { code, out } = await run(grade, [
      '933',
      '362',
      '933',
      'number-of-recent-calls',
      '933-number-of-recent-calls',
      'design-hit-counter',
    ]);
    expect(code).toBe(1);
    expect(fake.judged).toEqual(['933-number-of-recent-calls', '362-design-hit-counter']);
    const rows = out.split('\n').filter((line) => /^\d+ /.test(line));
    expect(rows.map((row) => row.split(' ')[0])).toEqual(['933', '362']);
    expect(out).toMatch(/Solved 0\/2/);
    expect(
      JSON.parse(readFileSync(PROGRESS_FILE, 'utf8')).problems['933-number-of-recent-calls']
        .attempts,
    ).toBe(1);
  });

  test('5,000 copies are one judgement, at once', async () => {
    const started = Date.now();
    const { out } = await run(
      grade,
      Array.from({ length: 5000 }, () => '933'),
    );
    expect(fake.judged).toEqual(['933-number-of-recent-calls']);
    expect(out).toMatch(/Solved 0\/1/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('resolveProblems keeps the first mention of each', () => {
    expect(
      resolveProblems(problems, ['362', '933', '362/', 'DESIGN-HIT-COUNTER']).map((p) => p.id),
    ).toEqual(['362', '933']);
  });
});

describe('an echoed argument is cut to 60 characters and escaped', () => {
  function expectShort(line: string | undefined): void {
    expect(line).toBeDefined();
    expect(line!.length).toBeLessThan(400);
    expect(line).not.toMatch(RAW_CONTROL);
    expect(line).not.toContain('x'.repeat(60));
    expect(line).toMatch(/x{50,59}…/);
  }

  test.each([
    ['an unknown problem', grade, [HUGE]],
    ['an unknown problem to hint', hint, [HUGE]],
    ['an unknown option', grade, [`--${HUGE}`]],
    ['an unknown option with a value', grade, [`--${HUGE}=1`]],
    ['a stray argument to progress', progress, [HUGE]],
    ['--dir that is not a folder', grade, ['--dir', HUGE]],
    ['--import of a file that is not there', progress, ['--import', HUGE]],
  ] as const)('%s', async (_, command, argv) => {
    const { code, err } = await run(command, [...argv]);
    expect(code).toBe(2);
    expect(err).toHaveLength(1);
    expectShort(err[0]);
  });

  test('new-problem with a huge folder or class name', async () => {
    const roots = { problems: scratchDir('np-p'), solutions: scratchDir('np-s') };
    for (const argv of [
      [HUGE, '--class', 'A'],
      ['1-a', '--class', HUGE],
      ['1-a', HUGE],
    ]) {
      const io = captureIO();
      expect(await runCommand((i) => newProblem(argv, i, roots), io)).toBe(2);
      expectShort(io.stderr[0]);
    }
  });

  test('control characters in a short argument are shown escaped', async () => {
    const { err } = await run(grade, ['93\x1b[2J\r\x07']);
    expect(err[0]).toContain('Unknown problem "93\\x1b[2J\\r\\x07"');
    const flag = await run(grade, ['--x\x1b[2J']);
    expect(flag.err[0]).not.toMatch(RAW_CONTROL);
    expect(flag.err[0]).toContain('--x\\x1b[2J');
  });

  test('parse keeps short messages as they were', () => {
    const usage = { command: 'list', maxArgs: 0, summary: '', options: {}, example: '' };
    expect(() => parse(['--frobnicate'], usage)).toThrow(
      /^unknown option '--frobnicate'\. Options: --help$/,
    );
  });

  test('a quiz answer that names no choice is echoed cut and escaped', async () => {
    const io = captureIO();
    await runCommand((i) => quiz(['933'], i, [HUGE]), io);
    const echo = io.stdout.find((line) => line.includes('is not one of the choices'));
    expectShort(echo);
  });
});

describe('progress --import refuses out-of-range records, and changes nothing', () => {
  const DIR = '933-number-of-recent-calls';
  const good: ProblemProgress = {
    firstAttempted: '2026-01-01T00:00:00.000Z',
    firstAccepted: '2026-01-02T00:00:00.000Z',
    lastAttempted: '2026-01-03T00:00:00.000Z',
    attempts: 3,
    bestVerdict: 'accepted',
    followUpsPassed: 1,
    followUpsTotal: 4,
    hintsUsed: 2,
    solutionViewed: '2026-01-02T00:00:00.000Z',
    solutionViewedBeforeAccepted: false,
    quiz: { best: 4, last: 3, total: 6, at: '2026-01-03T00:00:00.000Z' },
  };
  const record = (fields: Record<string, unknown>, dir = DIR): string =>
    JSON.stringify({ version: 1, problems: { [dir]: { ...good, ...fields } } });
  const goodText = record({});

  test('a sound record passes the check', () => {
    expect(checkRecord(JSON.parse(goodText))).toBeUndefined();
    expect(checkRecord(emptyProgress())).toBeUndefined();
  });

  test.each([
    ['a negative count', record({ attempts: -1 }), /attempts must be a whole number from 0/],
    ['a fraction', record({ attempts: 1.5 }), /attempts must be a whole number/],
    ['an infinite count', goodText.replace('"attempts":3', '"attempts":1e400'), /attempts/],
    ['a NaN-like count', record({ followUpsTotal: 'NaN' }), /followUpsTotal must be/],
    ['a count held as text', record({ hintsUsed: '2' }), /hintsUsed must be/],
    ['negative hints', record({ hintsUsed: -3 }), /hintsUsed must be/],
    ['an absurd count', record({ followUpsTotal: 1e12 }), /followUpsTotal must be/],
    [
      'a latest quiz score over its total',
      record({ quiz: { ...good.quiz, last: 7 } }),
      /quiz\.last \(7\) is more than its 6 questions/,
    ],
    ['a negative quiz score', record({ quiz: { ...good.quiz, last: -1 } }), /quiz\.last must be/],
    ['a year 9999 date', record({ lastAttempted: '9999-12-31T23:59:59.999Z' }), /lastAttempted/],
    ['a 1970 date', record({ firstAttempted: '1970-01-01T00:00:00.000Z' }), /firstAttempted/],
    [
      'a day that does not exist',
      record({ firstAccepted: '2026-02-30T00:00:00.000Z' }),
      /firstAccepted/,
    ],
    [
      'a date without a time',
      record({ lastAttempted: '2026-01-03' }),
      /lastAttempted must be a time/,
    ],
    ['a date that is a word', record({ solutionViewed: 'yesterday' }), /solutionViewed/],
    ['a date that is a number', record({ firstAttempted: 1767225600000 }), /firstAttempted/],
    [
      'a quiz time out of range',
      record({ quiz: { ...good.quiz, at: '0000-01-01T00:00:00.000Z' } }),
      /quiz\.at/,
    ],
    [
      'no firstAccepted at all',
      record({ firstAccepted: undefined }),
      /firstAccepted must be a time or null/,
    ],
    ['a flag that is not one', record({ solutionViewedBeforeAccepted: 'yes' }), /true or false/],
    ['an unknown verdict', record({ bestVerdict: 'great' }), /bestVerdict must be one of/],
    ['a folder name that is not one', record({}, '../../etc'), /is not a problem folder name/],
    [
      '__proto__ as a folder',
      `{"version":1,"problems":{"__proto__":${JSON.stringify(good)}}}`,
      /__proto__/,
    ],
    [
      'a folder name with escapes',
      record({}, 'a\u001b[2J'),
      /"a\\u001b\[2J" is not a problem folder name/,
    ],
    ['problems that are a list', '{"version":1,"problems":[]}', /problems must be an object/],
    // Sound fields that contradict each other (finding 7: 50/5 follow-ups was taken).
    [
      '50 of 5 follow-ups passed',
      record({ followUpsPassed: 50, followUpsTotal: 5 }),
      /problems\.933-number-of-recent-calls\.followUpsPassed \(50\) is more than its 5 follow-ups/,
    ],
    [
      'a best quiz score over its total',
      record({ quiz: { ...good.quiz, best: 7 } }),
      /quiz\.best \(7\) is more than its 6 questions/,
    ],
    ['999 hints', record({ hintsUsed: 999 }), /hintsUsed \(999\) is more hints than any problem/],
    [
      'accepted, never accepted',
      record({ firstAccepted: null }),
      /firstAccepted is null, yet bestVerdict is accepted/,
    ],
    [
      'accepted when not the best verdict',
      record({ bestVerdict: 'wrong-answer' }),
      /firstAccepted is a time, yet bestVerdict is wrong-answer, not accepted/,
    ],
    [
      'a last verdict better than the best',
      record({ bestVerdict: 'wrong-answer', firstAccepted: null, lastVerdict: 'accepted' }),
      /lastVerdict \(accepted\) is better than bestVerdict \(wrong-answer\)/,
    ],
    ['accepted without an attempt', record({ attempts: 0 }), /attempts is 0, yet bestVerdict/],
    [
      'the solution seen before, never seen',
      record({ solutionViewed: null, solutionViewedBeforeAccepted: true }),
      /solutionViewedBeforeAccepted is true, yet solutionViewed has no time/,
    ],
  ])('%s', async (_, text, message) => {
    const before = readFileSync(PROGRESS_FILE, 'utf8');
    const file = path.join(scratchDir('safety-import'), 'theirs.json');
    writeFileSync(file, text);
    const { code, out, err } = await run(progress, ['--import', file]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(
      /^error: .*theirs\.json is not a progress record as --export writes it: /,
    );
    expect(err[0]).toMatch(message);
    expect(err[0]).toMatch(/nothing was changed$/);
    expect(err[0]).not.toMatch(RAW_CONTROL);
    expect(readFileSync(PROGRESS_FILE, 'utf8')).toBe(before);
  });

  test('times out of order are taken: a clock that stepped back leaves them so', () => {
    const stepped = { ...good, lastAttempted: '2025-12-31T00:00:00.000Z' };
    expect(checkRecord({ version: 1, problems: { [DIR]: stepped } })).toBeUndefined();
  });

  test('a record this program wrote before it settled counts is exported as it now writes it', async () => {
    // A suite or a quiz that lost follow-ups or questions left the old best above the new total.
    const old = { ...good, followUpsPassed: 5, followUpsTotal: 4, quiz: { ...good.quiz, best: 7 } };
    writeFileSync(PROGRESS_FILE, JSON.stringify({ version: 1, problems: { [DIR]: old } }));
    const file = path.join(scratchDir('safety-export'), 'mine.json');
    expect((await run(progress, ['--export', file])).code).toBe(0);
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    expect(exported.problems[DIR]).toMatchObject({ followUpsPassed: 4, quiz: { best: 6 } });
    expect(checkRecord(exported)).toBeUndefined();
  });

  test('the same record, sound, is imported', async () => {
    const file = path.join(scratchDir('safety-import'), 'theirs.json');
    writeFileSync(file, goodText);
    const { code } = await run(progress, ['--import', file]);
    expect(code).toBe(0);
    expect(JSON.parse(readFileSync(PROGRESS_FILE, 'utf8')).problems[DIR]).toEqual(good);
  });
});
