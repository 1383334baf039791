// LeetCode's runtime offers lodash's `_` and the datastructures-js classes without an import; so
// does the judge, inside the learner's realm, and only for a solution that names them.
import { describe, expect, test } from 'vitest';
import { compileLearner } from '../harness/judge/compile.ts';
import { judge } from '../harness/judge/judge.ts';
import { findProblem, loadProblems } from '../harness/judge/problems.ts';
import { scratchDir, writeLearnerFile } from './helpers.ts';

const problems = loadProblems();
const dir = scratchDir('leetcode-globals');

async function verdict(problemId: string, name: string, source: string): Promise<string> {
  const problem = findProblem(problems, problemId)!;
  const report = await judge({ problem, solutionFile: writeLearnerFile(dir, name, source) });
  return report.verdict;
}

describe("LeetCode's import-free libraries", () => {
  test('a hit counter on Queue is accepted, as on LeetCode', async () => {
    const source = `export class HitCounter {
      q = new Queue<number>();
      hit(timestamp: number): void { this.q.enqueue(timestamp); }
      getHits(timestamp: number): number {
        while (!this.q.isEmpty() && this.q.front()! <= timestamp - 300) this.q.dequeue();
        return this.q.size();
      }
    }`;
    expect(await verdict('362', 'queue.ts', source)).toBe('accepted');
  });

  test("lodash's _ and a MinPriorityQueue work", async () => {
    const source = `export class RecentCounter {
      times: number[] = [];
      heap = new MinPriorityQueue<number>();
      ping(t: number): number {
        this.heap.enqueue(t);
        while (this.heap.front()! < t - 3000) this.heap.dequeue();
        this.times.push(t);
        return _.clamp(this.heap.size(), 0, Infinity);
      }
    }`;
    expect(await verdict('933', 'lodash-heap.ts', source)).toBe('accepted');
  });

  test('a solution that names none of them gets none of them', async () => {
    const file = writeLearnerFile(dir, 'plain.ts', 'export class RecentCounter {}');
    const compiled = await compileLearner(file);
    expect(compiled.ok && compiled.libraries).toEqual([]);
    const named = writeLearnerFile(dir, 'named.ts', 'const q = new Deque(); const s = _.sum([1]);');
    const both = await compileLearner(named);
    expect(both.ok && both.libraries.length).toBe(2);
  });
});
