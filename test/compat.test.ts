// The compatibility corpus (test/compat/, see its README): solutions in the shapes real LeetCode
// submissions take, and other honest solutions written from a statement alone, each judged as a
// learner's pasted solution.ts and held to the verdict its header declares. One test per file. A
// problem that requires Redis is judged on one Redis for the file, as grade does; without Redis its
// files are skipped with one loud line (a failure under WINDOW_KATAS_REQUIRE_REDIS, as in CI).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { judge, releaseSlot, type SessionSlot } from '../harness/judge/judge.ts';
import type { ProblemReport } from '../harness/judge/outcome.ts';
import { findProblem, loadProblems, type Problem } from '../harness/judge/problems.ts';
import { REPO_ROOT } from '../harness/paths.ts';
import { readCompatExpectation as readExpectation } from '../scripts/lib/compat-corpus.ts';
import { CommandRedis } from '../harness/redis/session.ts';
import { redisForTests } from './redis-problem.ts';

const CORPUS = path.join(REPO_ROOT, 'test', 'compat');
const problems = loadProblems();
// One child process for the whole corpus, problem after problem.
const slot: SessionSlot = {};
afterAll(() => releaseSlot(slot));

/** The verdict and every case that did not pass, to show when an expectation fails. */
function summary(report: ProblemReport): string {
  const failed = report.cases
    .filter((c) => c.status !== 'passed' && c.status !== 'skipped')
    .map((c) => `  ${c.tier} · ${c.name} [${c.trap}] ${c.status}: ${c.message ?? ''}`);
  return [`${report.verdict}${report.message ? `: ${report.message}` : ''}`, ...failed].join('\n');
}

const dirs = readdirSync(CORPUS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

test('the corpus covers problems the judge knows', () => {
  expect(dirs.length).toBeGreaterThan(0);
  for (const dir of dirs) expect(findProblem(problems, dir)?.dir, dir).toBe(dir);
});

const needsRedis = (problem: Problem | undefined): boolean =>
  problem?.requires?.includes('redis') ?? false;
const redisDirs = dirs.filter((dir) => needsRedis(findProblem(problems, dir)));
/** One Redis for the file, started by the first judgement that needs it; undefined: none here. */
let redis: CommandRedis | undefined;
let redisMissing = false;
if (redisDirs.length > 0) {
  const here = redisForTests(`the compatibility files of ${redisDirs.join(', ')}`);
  if (here === 'available') {
    const opened = new CommandRedis();
    redis = opened;
    afterAll(() => opened.close());
  } else {
    redisMissing = true;
    if (here === 'required') {
      test('Redis is available for the corpus files that require it', () => {
        expect.fail('WINDOW_KATAS_REQUIRE_REDIS is set, but redis-server was not found');
      });
    }
  }
}

for (const dir of dirs) {
  const problem = findProblem(problems, dir);
  const withRedis =
    problem && redis && needsRedis(problem)
      ? { redis: () => (redis as CommandRedis).optionsFor(problem) }
      : {};
  const files = readdirSync(path.join(CORPUS, dir))
    .filter((file) => file.endsWith('.ts'))
    .sort();
  describe(dir, () => {
    for (const file of files) {
      const solutionFile = path.join(CORPUS, dir, file);
      const expectation = readExpectation(solutionFile);
      const title = `${file}: ${expectation.verdict}${expectation.trap ? ` (${expectation.trap})` : ''}`;
      test.skipIf(redisMissing && needsRedis(problem))(title, async () => {
        if (!problem) throw new Error(`no problem ${dir}`);
        const report = await judge({
          problem,
          solutionFile,
          slot,
          followUps: () => expectation.followUps,
          ...withRedis,
        });
        expect(report.verdict, summary(report)).toBe(expectation.verdict);
        const first = report.cases.find((c) => c.status !== 'passed' && c.status !== 'skipped');
        if (expectation.verdict === 'accepted') {
          expect(first, summary(report)).toBeUndefined();
          if (expectation.followUps) expect(report.followUps.total).toBeGreaterThan(0);
        } else {
          expect(first?.trap ?? null, summary(report)).toBe(expectation.trap);
        }
        if (expectation.message !== undefined) {
          expect(report.message ?? first?.message, summary(report)).toContain(expectation.message);
        }
      });
    }
  });
}
