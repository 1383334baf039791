// `npm run check-problem <problem>` runs the project's own proofs for one problem, chosen by name
// with vitest's -t. What matters is the choice: every proof of that problem and nothing of another,
// even of one whose name contains it (token-bucket, token-bucket-limiter, redis-token-bucket). It is
// checked here with `vitest list`, which collects the tests without running them; the command's
// whole run is checked on a new problem in test/templates.test.ts.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { findProblem, loadProblems, type Problem } from '../../harness/judge/problems.ts';
import { REPO_ROOT } from '../../harness/paths.ts';
import { checksOf, proofRuns, testsOf } from '../../scripts/commands/check-problem.ts';

const problem = findProblem(loadProblems(), 'token-bucket') as Problem;

/** The full names of the tests a run would run, as `vitest list` gives them. */
function listed(files: string[], pattern: string): string[] {
  const vitest = path.join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const result = spawnSync(process.execPath, [vitest, 'list', ...files, '-t', pattern, '--json'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  expect(result.status, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { name: string }[]).map((t) => t.name);
}

describe('the tests check-problem runs', () => {
  test('the name matches as a whole word, not inside a longer name', () => {
    const pattern = new RegExp(testsOf('token-bucket'));
    expect(pattern.test('token-bucket the reference is accepted')).toBe(true);
    expect(pattern.test('token-bucket: the shipped stub is the pristine stub')).toBe(true);
    expect(pattern.test('a title, written once token-bucket: the statement opens')).toBe(true);
    expect(pattern.test("README's ladder one row per problem")).toBe(true);
    expect(pattern.test('token-bucket-limiter the reference is accepted')).toBe(false);
    expect(pattern.test('redis-token-bucket the reference is accepted')).toBe(false);
  });

  test("token-bucket's: every proof of it, and nothing of the problems named like it", () => {
    const [named, ...others] = proofRuns(problem);
    // token-bucket has no design test: one run, of the files that name problems.
    expect(others).toEqual([]);
    const names = listed(named?.files ?? [], named?.pattern ?? '');
    const wrong = readdirSync(problem.mistakesDir).filter((file) => file.endsWith('.ts'));
    expect(names).toEqual(
      expect.arrayContaining([
        'token-bucket > the reference is accepted and passes every follow-up',
        'token-bucket > the untouched stub is not started',
        'token-bucket > the statement shows exactly the example cases',
        'token-bucket > every hidden case names its trap and carries a hint',
        ...wrong.map((file) => `token-bucket > mistakes/${file} is caught by the trap it embodies`),
        'token-bucket: the shipped stub is the pristine stub, byte for byte',
        expect.stringMatching(/token-bucket: the statement opens with them$/),
        expect.stringMatching(/^README's ladder/),
      ]),
    );
    const strangers = names.filter((name) => !/(^| )token-bucket(:| )|^README's ladder/.test(name));
    expect(strangers).toEqual([]);
  });

  test('a limiter kata adds its design test, run whole', () => {
    const limiter = findProblem(loadProblems(), 'token-bucket-limiter') as Problem;
    expect(proofRuns(limiter)[1]).toEqual({ files: ['test/design/token-bucket-limiter.test.ts'] });
  });
});

describe("a vitest report as check-problem's list", () => {
  test('each test run, named without the problem; a file that could not load; no skipped one', () => {
    const file = (name: string) => path.join(REPO_ROOT, 'test', name);
    const checks = checksOf(
      {
        testResults: [
          {
            name: file('problems-a.test.ts'),
            status: 'failed',
            assertionResults: [
              { fullName: 'token-bucket the reference is accepted', status: 'passed' },
              {
                fullName: 'token-bucket mistakes/x.ts is caught',
                status: 'failed',
                failureMessages: [
                  'AssertionError: expected 1 to be 2\n\n  at line\n  more\n  more',
                ],
              },
              { fullName: '933-number-of-recent-calls the reference', status: 'skipped' },
            ],
          },
          {
            name: file('design/x.test.ts'),
            status: 'failed',
            message: 'SyntaxError: nope',
            assertionResults: [],
          },
        ],
      },
      'token-bucket',
      REPO_ROOT,
    );
    expect(checks).toEqual([
      { file: 'test/problems-a.test.ts', name: 'the reference is accepted', passed: true },
      {
        file: 'test/problems-a.test.ts',
        name: 'mistakes/x.ts is caught',
        passed: false,
        detail: 'AssertionError: expected 1 to be 2\n  at line\n  more',
      },
      {
        file: 'test/design/x.test.ts',
        name: 'could not run',
        passed: false,
        detail: 'SyntaxError: nope',
      },
    ]);
  });
});
