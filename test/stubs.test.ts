// The stub a learner starts from (problems/<dir>/solution.ts) must be the one `npm run reset` puts
// back (solutions/<dir>/stub.ts): otherwise a reset would hand them a different exercise. This runs
// on the repository as committed, so it also catches a stub edited in one place and not the other.
import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { pristineStubFile } from '../harness/learner/learning.ts';
import { loadProblems } from '../harness/judge/problems.ts';

const problems = loadProblems();

test('every problem is checked', () => {
  expect(problems.length).toBeGreaterThan(0);
});

test.each(problems.map((p) => [p.dir, p] as const))(
  '%s: the shipped stub is the pristine stub, byte for byte',
  (_, problem) => {
    expect(existsSync(pristineStubFile(problem))).toBe(true);
    expect(readFileSync(problem.stubFile, 'utf8')).toBe(
      readFileSync(pristineStubFile(problem), 'utf8'),
    );
  },
);
