// The README's example of a report is real output: judging the file it names gives those lines.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { judge } from '../harness/judge/judge.ts';
import { findProblem, loadProblems, type Problem } from '../harness/judge/problems.ts';
import { REPO_ROOT } from '../harness/paths.ts';
import { formatReport } from '../harness/terminal/report.ts';
import { makeStyle } from '../harness/terminal/style.ts';

test("the README's call table is what the judge prints for the file it names", async () => {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /judged with\s+`-- --reveal`\):\n\n```text\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  const problem = findProblem(loadProblems(), 'fixed-window-limiter') as Problem;
  const report = await judge({
    problem,
    solutionFile: path.join(problem.mistakesDir, 'reset-at-last-ms.ts'),
  });
  const shown = formatReport(problem, report, { reveal: true, style: makeStyle(false) });
  expect(shown).toContain((block as string).trimEnd());
});

test("the README's picture is what the judge prints for the file it names", async () => {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /mistakes\/lte-cutoff\.ts`\):\n\n```text\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  const problem = findProblem(loadProblems(), '933') as Problem;
  const report = await judge({
    problem,
    solutionFile: path.join(problem.mistakesDir, 'lte-cutoff.ts'),
  });
  const shown = formatReport(problem, report, { reveal: false, style: makeStyle(false) });
  expect(shown).toContain((block as string).trimEnd());
});
