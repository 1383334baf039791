// Issue 21 ("Sealed for real"): the hostile files that got out of the learner's realm, and what
// escaped code can still do in the child process. The files are kept in test/fixtures/hostile/.
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { judge } from '../harness/judge/judge.ts';
import { findProblem, loadProblems } from '../harness/judge/problems.ts';

const problems = loadProblems();
const p933 = findProblem(problems, '933')!;
const hostile = (name: string): string =>
  path.join(import.meta.dirname, 'fixtures', 'hostile', name);

describe('the double-read realm escape (finding 1)', () => {
  test('the forged-Accepted 933 is Wrong Answer, and leaves no file behind', async () => {
    const mark = path.join(tmpdir(), 'window-katas-double-read-escaped');
    rmSync(mark, { force: true });
    const report = await judge({ problem: p933, solutionFile: hostile('double-read-933.ts') });
    expect(existsSync(mark), 'the file written by escaped code').toBe(false);
    expect(report.verdict).toBe('wrong-answer');
    expect(report.followUps.passed).toBe(0);
    expect(report.cases.every((c) => c.status === 'failed')).toBe(true);
  });
});
