// The pure parts of `npm run bench -- --load`: its arguments, and what counts as a flip. The run
// itself takes minutes on a saturated machine, and is not repeated here.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  backstopShare,
  compatAlternatives,
  caughtBySkipOnly,
  describeExpected,
  flipOf,
  formatCase,
  formatTable,
  parseLoadArgs,
  skippedLine,
  wallBackstopMs,
  type GradedCase,
  type GradeReport,
} from '../../scripts/lib/bench-load.ts';

describe('arguments', () => {
  test('defaults: 20 rounds, 8 grades at once, every problem, its known files, burners per core', () => {
    expect(parseLoadArgs(['--load'])).toEqual({
      rounds: 20,
      concurrency: 8,
      only: [],
      compat: false,
      accepted: false,
    });
  });

  test('rounds, concurrency and a list of problems', () => {
    expect(
      parseLoadArgs(['--load', '--rounds', '3', '--concurrency=4', '--only', '933, token-bucket']),
    ).toEqual({
      rounds: 3,
      concurrency: 4,
      only: ['933', 'token-bucket'],
      compat: false,
      accepted: false,
    });
  });

  test('the accepted files alone, the corpus alternatives too, and no burners', () => {
    expect(parseLoadArgs(['--load', '--accepted', '--compat', '--burners', '0'])).toMatchObject({
      compat: true,
      accepted: true,
      burners: 0,
    });
  });

  test('the corpus alternatives of a problem are its files that must pass in full', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'bench-load-compat-'));
    try {
      mkdirSync(path.join(root, 'p'));
      const write = (name: string, header: string): void =>
        writeFileSync(path.join(root, 'p', name), `${header}\nexport class A {}\n`);
      write('full.ts', '// expect: accepted\n// expect-follow-ups: passed');
      write('core-only.ts', '// expect: accepted');
      write('wrong.ts', '// expect: wrong-answer same-semantics\n// expect-follow-ups: passed');
      expect(compatAlternatives('p', root)).toEqual([path.join(root, 'p', 'full.ts')]);
      expect(compatAlternatives('none', root)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test.each([
    [['--load', '--rounds', '0'], '--rounds must be a positive integer'],
    [['--load', '--concurrency', '-2'], /concurrency/],
    [['--load', '--rounds', '1.5'], '--rounds must be a positive integer'],
    [['--load', '--only', ','], '--only names no problem'],
    [['--load', 'extra'], 'unexpected argument "extra"'],
    [['--load', '--fast'], /fast/],
    [['--load', '--burners', 'two'], '--burners must be a whole number (0 for none)'],
  ])('%j is refused', (argv, message) => {
    expect(() => parseLoadArgs(argv)).toThrow(message);
  });
});

const graded = (
  name: string,
  trap: string | null,
  status: GradedCase['status'],
  extra: Partial<GradedCase> = {},
): GradedCase => ({ name, trap, status, ms: 3, wallMs: 9, ...extra });

const report = (verdict: GradeReport['verdict'], cases: GradedCase[]): GradeReport => ({
  verdict,
  ms: 1000,
  cases,
});

describe('flips', () => {
  const reference = { verdict: 'accepted' as const, trap: null };
  const scale = { verdict: 'accepted' as const, trap: 'scale' };

  test('a reference must be accepted with every case passed', () => {
    const passing = [graded('example', null, 'passed'), graded('big', 'scale', 'passed')];
    expect(flipOf(reference, report('accepted', passing))).toBeUndefined();
    // A follow-up that times out leaves the verdict accepted, and is still a flip.
    const slow = graded('big', 'scale', 'time-limit-exceeded', { ms: 3250 });
    const flip = flipOf(reference, report('accepted', [passing[0]!, slow]));
    expect(flip).toEqual({ got: 'accepted, 1 case(s) not passed', cases: [slow] });
    expect(flipOf(reference, report('wrong-answer', [graded('a', 'x', 'failed')]))?.got).toBe(
      'wrong-answer, 1 case(s) not passed',
    );
  });

  test('a wrong file must get its verdict, with a case of its trap not passed', () => {
    const caught = [
      graded('example', null, 'passed'),
      graded('big', 'scale', 'time-limit-exceeded'),
    ];
    expect(flipOf(scale, report('accepted', caught))).toBeUndefined();
    // Any status but passed catches it, another trap's failure does not.
    const failed = [graded('big', 'scale', 'failed')];
    expect(flipOf(scale, report('accepted', failed))).toBeUndefined();
    const elsewhere = [graded('big', 'scale', 'passed'), graded('other', 'idle', 'failed')];
    expect(flipOf(scale, report('accepted', elsewhere))).toEqual({
      got: 'accepted, scale not caught',
      cases: elsewhere,
    });
  });

  test('a trap case skipped for the budget still counts as caught, a wrong verdict does not', () => {
    const skipped = graded('big', 'scale', 'skipped', { message: "the problem's 6 s budget" });
    expect(flipOf(scale, report('accepted', [skipped]))).toBeUndefined();
    const wrongVerdict = [graded('core', 'idle', 'time-limit-exceeded'), skipped];
    expect(flipOf(scale, report('time-limit-exceeded', wrongVerdict))).toEqual({
      got: 'time-limit-exceeded, scale caught',
      cases: wrongVerdict,
    });
  });

  test('what a flip prints', () => {
    expect(describeExpected({ verdict: 'accepted', trap: null })).toBe(
      'accepted, every case passed',
    );
    expect(describeExpected({ verdict: 'wrong-answer', trap: 'idle' })).toBe(
      'wrong-answer, caught by idle',
    );
    const c = graded('big', 'scale', 'time-limit-exceeded', {
      ms: 3250,
      wallMs: 34_000,
      message: 'no answer within 2000 ms (stopped after 3250 ms)\nmore',
    });
    expect(formatCase(c)).toBe(
      'big [scale]: time-limit-exceeded, 3250 ms CPU, 34000 ms wall (no answer within 2000 ms (stopped after 3250 ms))',
    );
    expect(formatCase(graded('ex', null, 'failed'))).toBe(
      'ex [no trap]: failed, 3 ms CPU, 9 ms wall',
    );
  });

  test('the table lines up one row per problem', () => {
    const lines = formatTable([
      { problem: '933-number-of-recent-calls', solutions: 8, grades: 160, flips: 0 },
      { problem: 'token-bucket', solutions: 17, grades: 340, flips: 2 },
    ]);
    expect(lines).toEqual([
      'problem                    solutions    grades     flips',
      '933-number-of-recent-calls         8       160         0',
      'token-bucket                      17       340         2',
    ]);
  });

  test('a problem this machine cannot grade is a row that says so, and one loud line', () => {
    const lines = formatTable([
      { problem: 'token-bucket', solutions: 17, grades: 340, flips: 0 },
      { problem: 'redis-token-bucket', solutions: 14, grades: 0, flips: 0, skipped: 'needs Redis' },
    ]);
    expect(lines[2]).toBe('redis-token-bucket        14   skipped: needs Redis');
    const unmet = {
      requirement: 'redis' as const,
      label: 'needs Redis',
      message: 'm',
      note: 'no server',
    };
    const problem = (dir: string) => ({ dir }) as never;
    expect(
      skippedLine([
        { problem: problem('redis-a'), unmet },
        { problem: problem('redis-b'), unmet },
      ]),
    ).toEqual([
      '*** SKIPPED, not graded and not counted as flips: redis-a, redis-b (needs Redis: no server) ***',
    ]);
  });
});

test('a catch that rests on a skipped case is told apart', () => {
  const scale = { verdict: 'accepted' as const, trap: 'scale' };
  const skipped = graded('big', 'scale', 'skipped');
  expect(caughtBySkipOnly(scale, report('accepted', [skipped]))).toBe(true);
  const failed = graded('bigger', 'scale', 'time-limit-exceeded');
  expect(caughtBySkipOnly(scale, report('accepted', [skipped, failed]))).toBe(false);
  expect(caughtBySkipOnly(scale, report('accepted', [graded('big', 'scale', 'passed')]))).toBe(
    false,
  );
  expect(caughtBySkipOnly({ verdict: 'accepted', trap: null }, report('accepted', []))).toBe(false);
});

test('how near a case stopped for time came to the wall backstop', () => {
  expect(wallBackstopMs(3250)).toBe(34_500);
  const stopped = graded('big', 'scale', 'time-limit-exceeded', { ms: 3250, wallMs: 17_250 });
  expect(backstopShare(stopped)).toBe(0.5);
  expect(backstopShare(graded('big', 'scale', 'passed', { ms: 3250 }))).toBeUndefined();
});
