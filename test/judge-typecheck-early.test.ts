// A type error known at once (an answer kept from an earlier check of the same text) stops the
// judgement before the child has even listed the suite's cases: the Compile Error report must
// still name every case, skipped, as it does when the check answers later.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { judge } from '../harness/judge/judge.ts';
import { findProblem, loadProblems } from '../harness/judge/problems.ts';
import { checkTypes } from '../harness/judge/typecheck.ts';
import { scratchDir, writeLearnerFile } from './helpers.ts';

const problem = findProblem(loadProblems(), '933')!;

test('a type error known before the cases are listed still reports every case, skipped', async () => {
  const stub = readFileSync(problem.stubFile, 'utf8');
  const file = writeLearnerFile(
    scratchDir('typecheck-early'),
    'kept.ts',
    `${stub}\nconst n: string = 5;\n`,
  );
  // Checked once: the next check of this text is answered from the kept answer, at once.
  expect(await checkTypes(file, { home: path.dirname(problem.stubFile) })).toHaveLength(1);
  for (let round = 0; round < 3; round++) {
    const report = await judge({ problem, solutionFile: file });
    expect(report.verdict).toBe('compile-error');
    expect(report.cases.length).toBeGreaterThan(0);
    for (const c of report.cases) expect(c.status).toBe('skipped');
  }
});
