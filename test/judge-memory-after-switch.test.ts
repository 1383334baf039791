// A grade lane or a watch session judges problem after problem in one child. The previous
// problem's realm must not be counted in the next one's memory cases: the gateway's reference
// ends with 25 000 long client ids in its maps, and once made token-bucket-limiter's 1 MB case
// read 8 MB (the old realm was freed between the readings with and without the instances).
import { expect, test } from 'vitest';
import { judge, releaseSlot, type SessionSlot } from '../harness/judge/judge.ts';
import { findProblem, loadProblems } from '../harness/judge/problems.ts';

const problems = loadProblems();
const gateway = findProblem(problems, 'rate-limit-gateway')!;
const buckets = findProblem(problems, 'token-bucket-limiter')!;

test('memory cases right after another problem count only their own instances', async () => {
  // It failed in about half of the tries before the fix: four tries miss it about once in 20.
  for (let attempt = 0; attempt < 4; attempt++) {
    const slot: SessionSlot = {};
    try {
      await judge({
        problem: gateway,
        solutionFile: gateway.referenceFile,
        slot,
        typeCheck: false,
      });
      const next = await judge({
        problem: buckets,
        solutionFile: buckets.referenceFile,
        slot,
        typeCheck: false,
      });
      const failed = next.cases
        .filter((c) => c.status !== 'passed')
        .map((c) => `${c.name}: ${c.message ?? c.status}`);
      expect(failed).toEqual([]);
    } finally {
      releaseSlot(slot);
    }
  }
});
