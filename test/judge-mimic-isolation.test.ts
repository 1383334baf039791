// Naming a learner's mistake replays the suite's known-wrong implementations in the child's own
// realm (mimic.ts). One of them, wrong about keys such as `__proto__`, writes on Object.prototype
// there; the next judgement in the same child (a grade's lane, a watch's next save) must not see it.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { judge, releaseSlot, type SessionSlot } from '../harness/judge/judge.ts';
import { findProblem, loadProblems } from '../harness/judge/problems.ts';
import { scratchDir, writeLearnerFile } from './helpers.ts';

const problems = loadProblems();
const leaky = findProblem(problems, 'leaky-bucket-queue')!;
const p933 = findProblem(problems, '933')!;

test('a mimic that bends Object.prototype leaves nothing for the next problem in that child', async () => {
  // The reference, wrong only about the key "constructor": the prototype-keys case fails, and its
  // known mistakes (object-as-map among them) are replayed on that case's calls.
  const reference = readFileSync(leaky.referenceFile, 'utf8');
  const marker = 'submit(key: string';
  expect(reference).toContain(marker);
  const learner = reference.replace(
    /(submit\(key: string[^{]*\{)/,
    "$1\n    if (key === 'constructor') key = 'toString';",
  );
  const solutionFile = writeLearnerFile(scratchDir('mimic-isolation'), 'solution.ts', learner);
  const slot: SessionSlot = {};
  try {
    const first = await judge({ problem: leaky, solutionFile, slot, typeCheck: false });
    const failed = first.cases.filter((c) => c.status !== 'passed').map((c) => c.trap);
    expect(failed).toContain('prototype-keys');
    expect(slot.session?.alive).toBe(true);
    const next = await judge({ problem: p933, solutionFile: p933.referenceFile, slot });
    expect(next.verdict).toBe('accepted');
    expect(next.followUps.passed).toBe(next.followUps.total);
  } finally {
    releaseSlot(slot);
  }
});
