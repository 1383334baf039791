// A problem that declares `"requires": ["redis"]`, on a machine where Redis is unavailable: kata says
// so in one line and exits 2 without judging; grade lists it as "needs Redis" (JSON: "unavailable"),
// judges the others, and records nothing for it. With Redis available, it is judged as before.
// Run in a copy of the repo that holds, besides the shipped Redis katas (whose stubs would fail), one
// more such problem: a copy of 933 under another name, whose stub is 933's reference, so that judging
// it would be Accepted and recorded, which is what must not happen.
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../harness/paths.ts';
import { redisAvailability } from '../harness/redis/availability.ts';
import { copyRepo } from '../scripts/lib/repo-copy.ts';
import { runScript, scratchDir } from './helpers.ts';

const DIR933 = '933-number-of-recent-calls';
const REDIS_DIR = 'redis-fake-limiter';
/** A shipped Redis kata, judged (or not) beside the fake one. */
const SHIPPED_REDIS_DIR = 'redis-token-bucket';

let repo: string;
/** Holds `node` and `sh` and nothing else: a PATH without redis-server, wherever it is installed. */
let bareBin: string;
/** An executable that stands for redis-server: this step only checks that one exists. */
let fakeServer: string;

const reference = readFileSync(path.join(REPO_ROOT, 'solutions', DIR933, 'solution.ts'), 'utf8');

beforeAll(() => {
  repo = copyRepo(scratchDir('redis-unavailable'));
  for (const root of ['solutions', 'problems']) {
    cpSync(path.join(repo, root, DIR933), path.join(repo, root, REDIS_DIR), { recursive: true });
  }
  const metaFile = path.join(repo, 'solutions', REDIS_DIR, 'problem.json');
  const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(
    metaFile,
    JSON.stringify({ ...meta, title: 'Redis Fake Limiter', order: 99, requires: ['redis'] }),
  );
  // Both stubs hold a solution that would be Accepted: an attempt the judge would record.
  writeFileSync(path.join(repo, 'problems', REDIS_DIR, 'solution.ts'), reference);
  writeFileSync(path.join(repo, 'problems', DIR933, 'solution.ts'), reference);

  const scratch = scratchDir('redis-unavailable-bin');
  bareBin = path.join(scratch, 'bin');
  mkdirSync(bareBin);
  symlinkSync(process.execPath, path.join(bareBin, 'node'));
  symlinkSync('/bin/sh', path.join(bareBin, 'sh'));
  fakeServer = path.join(scratch, 'redis-server');
  writeFileSync(fakeServer, '#!/bin/sh\nexit 1\n');
  chmodSync(fakeServer, 0o755);
});

/** Each run records into a state folder of its own, so that one run's progress proves its own. */
function run(args: string[], env: Record<string, string | undefined>) {
  const state = scratchDir('redis-unavailable-state');
  const result = runScript(repo, args, {
    env: { REDIS_URL: undefined, REDIS_SERVER: undefined, KATA_STATE_DIR: state, ...env },
  });
  const progressFile = path.join(state, 'progress.json');
  const progress = existsSync(progressFile)
    ? (JSON.parse(readFileSync(progressFile, 'utf8')) as {
        problems: Record<string, { attempts: number; bestVerdict: string }>;
      })
    : undefined;
  return { ...result, progress };
}

/** No redis-server on PATH, none named by REDIS_SERVER, no REDIS_URL. */
const noRedis = () => ({ PATH: bareBin });
/** redis-server on PATH as the machine has it, but REDIS_SERVER names a file that is not there. */
const missingServer = () => ({ REDIS_SERVER: path.join(path.dirname(fakeServer), 'missing') });

const expectedMessage = (env: Record<string, string>): string => {
  const availability = redisAvailability(env);
  if (availability.available) throw new Error('Redis should be unavailable here');
  return availability.message;
};

/** Lines wrapped with a hanging indent, joined back into the one line they were made from. */
const unwrapped = (text: string): string => text.trimEnd().replace(/\n {2}/g, ' ');

function fits80(text: string): void {
  for (const line of text.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(80);
}

describe('kata, without Redis', () => {
  test('one line (wrapped to 80 columns) saying what is missing and how to get it; exit 2', () => {
    const { code, stdout, stderr, progress } = run(['kata', REDIS_DIR, '--once'], noRedis());
    expect(code).toBe(2);
    // Not judged, and not even opened: no statement, no report.
    expect(stdout).toBe('');
    expect(unwrapped(stderr)).toBe(expectedMessage({ PATH: bareBin }));
    expect(stderr).toContain('needs redis-server, but it is not on PATH');
    fits80(stderr);
    // The command to copy is never split across lines.
    expect(stderr).toMatch(/^.*`docker run -p 6379:6379 redis:7`.*$/m);
    expect(progress).toBeUndefined();
  });

  test('a REDIS_SERVER that is not there is said so, even with redis-server on PATH', () => {
    const env = missingServer();
    const { code, stdout, stderr, progress } = run(['kata', REDIS_DIR, '--once'], env);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(unwrapped(stderr)).toBe(expectedMessage({ ...env, PATH: process.env.PATH ?? '' }));
    expect(unwrapped(stderr)).toContain(`REDIS_SERVER=${env.REDIS_SERVER} is not an executable`);
    expect(progress).toBeUndefined();
  });

  test('the other problems open and are judged as ever', () => {
    const { code, stdout, progress } = run(['kata', '933', '--once'], noRedis());
    expect(code).toBe(0);
    expect(stdout).toContain('Accepted');
    expect(progress?.problems[DIR933]?.bestVerdict).toBe('accepted');
  });
});

describe('grade, without Redis', () => {
  test('the table says "needs Redis" and how to get it; the others are judged; 80 columns', () => {
    const { code, stdout, progress } = run(
      ['grade', '933', REDIS_DIR, '362', SHIPPED_REDIS_DIR],
      noRedis(),
    );
    expect(stdout).toMatch(
      /^933 · Number of Recent Calls +Easy +Accepted +(\d+)\/\1 +(\d+)\/\2 +/m,
    );
    expect(stdout).toMatch(/^redis-fake-limiter +Easy +needs Redis +— +— +—$/m);
    expect(stdout).toMatch(/^redis-token-bucket +Hard +needs Redis +— +— +—$/m);
    expect(stdout).toMatch(/^362 · Design Hit Counter +Medium +Not Started +0\/\d+/m);
    // Once under the table, however many problems need it.
    const note = /^needs Redis: (.*(?:\n {2}.*)*)$/m.exec(stdout)?.[0] ?? '';
    expect(unwrapped(note)).toMatch(/^needs Redis: redis-server is not on PATH; install it /);
    expect(unwrapped(note)).toContain('apt-get install redis-server');
    expect(stdout.match(/needs Redis:/g)).toHaveLength(1);
    // Counted apart: neither solved nor unsolved.
    expect(stdout).toMatch(/^Solved 1\/2 · follow-ups \d+\/\d+ · \d+\.\d s · 2 not judged$/m);
    fits80(stdout);
    expect(code).toBe(1); // 362's stub, not the problems without Redis
    // The judged problems are recorded; those not judged have no attempt.
    expect(progress?.problems[DIR933]?.attempts).toBe(1);
    expect(progress?.problems[REDIS_DIR]).toBeUndefined();
    expect(progress?.problems[SHIPPED_REDIS_DIR]).toBeUndefined();
  });

  test('a problem without Redis is no failure: every judged one accepted exits 0', () => {
    const { code, stdout, progress } = run(['grade', REDIS_DIR, '933'], missingServer());
    expect(stdout).toMatch(/^Solved 1\/1 · .* · 1 not judged$/m);
    expect(code).toBe(0);
    expect(Object.keys(progress?.problems ?? {})).toEqual([DIR933]);
  });

  test('nothing judgeable: the row, the note, exit 2, nothing recorded', () => {
    const { code, stdout, progress } = run(['grade', REDIS_DIR], noRedis());
    expect(stdout).toMatch(/needs Redis +— +— +—$/m);
    expect(stdout).toMatch(/^Solved 0\/0 · .* · 1 not judged$/m);
    expect(code).toBe(2);
    expect(progress).toBeUndefined();
  });

  test('--dir: the same, for solutions kept elsewhere', () => {
    const { code, stdout } = run(
      ['grade', '--dir', 'solutions', REDIS_DIR, '933', '--json'],
      missingServer(),
    );
    const problems = (JSON.parse(stdout) as { problems: { dir: string; verdict: string }[] })
      .problems;
    expect(problems.map((p) => [p.dir, p.verdict])).toEqual([
      [REDIS_DIR, 'unavailable'],
      [DIR933, 'accepted'],
    ]);
    expect(code).toBe(0);
  });

  test('--json: verdict "unavailable" with the message for each Redis kata, every other judged', () => {
    const { stdout, progress } = run(['grade', '--json'], noRedis());
    const problems = (
      JSON.parse(stdout) as {
        problems: {
          dir: string;
          verdict: string;
          message?: string;
          cases: unknown[];
          followUps: { passed: number; total: number };
        }[];
      }
    ).problems;
    const catalogue = problemDirs();
    expect(problems.map((p) => p.dir).sort()).toEqual(catalogue.sort());
    // The fake one and every shipped one that declares Redis, and no other.
    const needsRedis = [REDIS_DIR, ...redisKatas()];
    expect(needsRedis).toContain(SHIPPED_REDIS_DIR);
    expect(
      problems
        .filter((p) => p.verdict === 'unavailable')
        .map((p) => p.dir)
        .sort(),
    ).toEqual(needsRedis.sort());
    for (const dir of needsRedis) {
      expect(problems.find((p) => p.dir === dir)).toMatchObject({
        verdict: 'unavailable',
        message: expectedMessage({ PATH: bareBin }),
        cases: [],
        followUps: { passed: 0, total: 0 },
      });
      expect(progress?.problems[dir]).toBeUndefined();
    }
    for (const p of problems.filter((p) => !needsRedis.includes(p.dir))) {
      expect(p.verdict).toBe(p.dir === DIR933 ? 'accepted' : 'not-started');
      expect(p.message).toBeUndefined();
      expect(p.cases.length).toBeGreaterThan(0);
    }
    expect(progress?.problems[DIR933]?.attempts).toBe(1);
  });
});

// With Redis there, kata and grade start it (or reach REDIS_URL) before judging: one that is there
// but cannot be used is said in one line, as a missing one is (test/redis-judge-start.test.ts and
// test/redis-url-acl.test.ts judge on a real one).
describe('with a Redis that is there but cannot be used', () => {
  test.each([
    [
      'redis-server on PATH',
      () => ({ PATH: `${bareBin}:${path.dirname(fakeServer)}` }),
      /redis-server exited with status 1 before it was ready/,
    ],
    [
      'REDIS_SERVER',
      () => ({ PATH: bareBin, REDIS_SERVER: fakeServer }),
      /redis-server exited with status 1 before it was ready/,
    ],
    [
      'REDIS_URL',
      () => ({ PATH: bareBin, REDIS_URL: 'redis://127.0.0.1:1' }),
      /Redis at redis:\/\/127\.0\.0\.1:1 did not answer/,
    ],
  ])('%s: kata says why and exits 2; grade lists it apart; nothing recorded', (_, env, why) => {
    const kata = run(['kata', REDIS_DIR, '--once'], env());
    expect(kata.code).toBe(2);
    expect(kata.stdout).toBe('');
    expect(unwrapped(kata.stderr)).toMatch(why);
    fits80(kata.stderr);
    expect(kata.progress).toBeUndefined();
    const grade = run(['grade', REDIS_DIR, '933', '--json'], env());
    expect(grade.code).toBe(0);
    const problems = (
      JSON.parse(grade.stdout) as { problems: { dir: string; verdict: string; message: string }[] }
    ).problems;
    expect(problems.map((p) => [p.dir, p.verdict])).toEqual([
      [REDIS_DIR, 'unavailable'],
      [DIR933, 'accepted'],
    ]);
    expect(problems[0]?.message).toMatch(why);
    expect(Object.keys(grade.progress?.problems ?? {})).toEqual([DIR933]);
  });
});

/** The shipped problems whose problem.json declares Redis, read from the files themselves. */
function redisKatas(): string[] {
  return problemDirs().filter((dir) => {
    if (dir === REDIS_DIR) return false;
    const file = path.join(repo, 'solutions', dir, 'problem.json');
    const meta = JSON.parse(readFileSync(file, 'utf8')) as { requires?: string[] };
    return meta.requires?.includes('redis') === true;
  });
}

/** Every folder with a problem.json is a problem (harness/judge/problems.ts). */
function problemDirs(): string[] {
  const solutions = path.join(repo, 'solutions');
  return readdirSync(solutions, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .filter((dir) => existsSync(path.join(solutions, dir, 'problem.json')));
}
