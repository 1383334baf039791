// The problem checks (test/problem-checks.ts) on problems that require Redis: judged on one Redis
// for the file, each judgement with keys of its own, the same checks as any other problem
// (reference accepted with every follow-up, stub Not Started, each known-wrong file caught by its
// trap). Here on the two throwaway problems of test/redis-problem.ts, shipped as a learner gets
// them. And the rule for a machine without Redis: one loud line and a skip, or a failure where CI
// requires Redis.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadProblems } from '../harness/judge/problems.ts';
import { checkProblemList } from './problem-checks.ts';
import { COUNTER_DIR, redisForTests, repoWithRedisProblems, TWIN_DIR } from './redis-problem.ts';
import { scratchDir } from './helpers.ts';

const repo = repoWithRedisProblems('redis-infra-checks', { shippedStubs: true });
// Only the throwaway ones: the copy also holds the repo's own Redis katas, which problems-*.test.ts
// check.
const problems = loadProblems(path.join(repo, 'solutions'), path.join(repo, 'problems')).filter(
  (problem) => problem.dir === COUNTER_DIR || problem.dir === TWIN_DIR,
);

test('the copy holds both throwaway problems, each requiring Redis', () => {
  expect(problems.map((p) => [p.dir, p.requires])).toEqual([
    [COUNTER_DIR, ['redis']],
    [TWIN_DIR, ['redis']],
  ]);
});

checkProblemList(problems);

describe('whether tests that need Redis can run here', () => {
  const warned: string[] = [];
  const warn = (line: string): void => void warned.push(line);
  const noRedis = { PATH: scratchDir('no-redis-path') };

  test('with redis-server or REDIS_URL: available, and nothing said', () => {
    warned.length = 0;
    expect(redisForTests('x', { REDIS_URL: 'redis://127.0.0.1:1' }, warn)).toBe('available');
    expect(redisForTests('x', { REDIS_SERVER: process.execPath }, warn)).toBe('available');
    expect(warned).toEqual([]);
  });

  test('without: skipped, in one loud line naming what and why', () => {
    warned.length = 0;
    expect(redisForTests('the judgements of p', noRedis, warn)).toBe('skip');
    expect(warned).toEqual([
      '\n*** SKIPPING the judgements of p: redis-server not found (redis-server is not on PATH; ' +
        'CI installs it: .ci/run) ***\n',
    ]);
  });

  test('without, where CI requires Redis: required (the caller fails), not a skip', () => {
    warned.length = 0;
    expect(redisForTests('p', { ...noRedis, WINDOW_KATAS_REQUIRE_REDIS: '1' }, warn)).toBe(
      'required',
    );
    expect(warned).toEqual([]);
  });
});
