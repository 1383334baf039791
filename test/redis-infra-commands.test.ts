// Every command that judges learns about problems that require Redis, on the two throwaway problems
// of test/redis-problem.ts: grade starts no server when kept verdicts answer everything; mutate
// judges a Redis problem's mutants on one server for the whole run; the bench's load grades and
// limits start one of their own; list marks such problems and says once whether Redis is there.
// Without Redis each of them says so in a line and judges nothing of those problems. Servers are
// counted by a stand-in redis-server that logs its pid (see loggingServer), and must all be gone.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { loadProblems, type Problem } from '../harness/judge/problems.ts';
import { findRedisServer } from '../harness/redis/availability.ts';
import { mutate } from '../scripts/commands/mutate.ts';
import { captureIO, runScript, scratchDir } from './helpers.ts';
import {
  COUNTER_DIR,
  loggingServer,
  redisForTests,
  redisServerPids,
  repoWithRedisProblems,
  startedPids,
  TWIN_DIR,
} from './redis-problem.ts';

const realServer = findRedisServer();
const here = redisForTests('the tests of commands judging Redis problems');
test.runIf(here === 'required')('redis-server is installed', () => {
  expect.fail('WINDOW_KATAS_REQUIRE_REDIS is set but redis-server cannot be found');
});

/** No Redis at all: REDIS_SERVER names nothing (and a wrong explicit path never falls back). */
const NO_REDIS = { REDIS_URL: undefined, REDIS_SERVER: '/nonexistent/redis-server' };

let repo: string;
let problems: Problem[];
/** Servers started by this file's stand-ins: none may outlive its test. */
const startedHere = new Set<number>();

beforeAll(() => {
  repo = repoWithRedisProblems('redis-infra-commands');
  problems = loadProblems(path.join(repo, 'solutions'), path.join(repo, 'problems'));
});

afterAll(() => {
  const alive = redisServerPids();
  expect([...startedHere].filter((pid) => alive.includes(pid))).toEqual([]);
});

/** A stand-in redis-server, and the environment that makes a command use it. */
function counted(label: string) {
  const server = loggingServer(realServer as string, label);
  return {
    env: {
      REDIS_URL: undefined,
      REDIS_SERVER: server.path,
      KATA_STATE_DIR: scratchDir(`${label}-state`),
    },
    /** The servers it started so far, each already gone (stopped when its command ended). */
    starts: (): number[] => {
      const pids = startedPids(server.log);
      pids.forEach((pid) => startedHere.add(pid));
      const alive = redisServerPids();
      expect(pids.filter((pid) => alive.includes(pid))).toEqual([]);
      return pids;
    },
  };
}

type GradeJson = { problems: { dir: string; verdict: string; reused: boolean }[] };

describe.skipIf(here !== 'available')('with Redis', () => {
  test('grade: kept verdicts start no server; an edited file starts one', () => {
    const { env, starts } = counted('memo');
    const grade = () => {
      const { code, stdout } = runScript(repo, ['grade', COUNTER_DIR, TWIN_DIR, '--json'], { env });
      expect(code).toBe(0);
      return (JSON.parse(stdout) as GradeJson).problems.map((p) => [p.dir, p.verdict, p.reused]);
    };
    expect(grade()).toEqual([
      [COUNTER_DIR, 'accepted', false],
      [TWIN_DIR, 'accepted', false],
    ]);
    // A server for each judgement.
    expect(starts()).toHaveLength(2);
    // Nothing changed: both verdicts kept, and no server started for them.
    expect(grade()).toEqual([
      [COUNTER_DIR, 'accepted', true],
      [TWIN_DIR, 'accepted', true],
    ]);
    expect(starts()).toHaveLength(2);
    // One file edited: judged again, on a server of its own; the other still kept.
    appendFileSync(
      path.join(repo, 'problems', TWIN_DIR, 'solution.ts'),
      'export const edited = 1;\n',
    );
    expect(grade()).toEqual([
      [COUNTER_DIR, 'accepted', true],
      [TWIN_DIR, 'accepted', false],
    ]);
    expect(starts()).toHaveLength(3);
  });

  describe('mutate', () => {
    const saved = { ...process.env };
    afterEach(() => {
      // process.env keeps strings only: an unset variable is deleted, not set to "undefined".
      for (const name of ['REDIS_SERVER', 'REDIS_URL']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    });

    test('the reference and every mutant of a Redis problem are judged, each on a server of its own', async () => {
      const { env, starts } = counted('mutate');
      process.env.REDIS_SERVER = env.REDIS_SERVER;
      delete process.env.REDIS_URL;
      const io = captureIO();
      expect(await mutate([COUNTER_DIR], io, problems)).toBe(0);
      const out = io.stdout.join('\n');
      const rows = out.split('\n').filter((line) => line.startsWith('redis-tiny-'));
      expect(rows).toHaveLength(1);
      // Every mutant killed (or not compiling), none left unexplained.
      const killed = /Killed (\d+)\/(\d+) non-equivalent mutants/.exec(out);
      expect(Number(killed?.[1])).toBeGreaterThanOrEqual(4);
      expect(killed?.[1]).toBe(killed?.[2]);
      expect(out).not.toContain('not judged');
      // The reference and every mutant that compiles: a mutant's scripts cannot reach the next.
      expect(starts().length).toBeGreaterThan(Number(killed?.[2]));
    });
  });

  test('bench --load: a grade of a Redis problem starts a server of its own, and times it', () => {
    const { env, starts } = counted('bench-worker');
    const grade = (file: string) => {
      const { code, stdout } = runScript(
        repo,
        ['bench', '--load-worker', COUNTER_DIR, path.join(repo, 'solutions', COUNTER_DIR, file)],
        { env },
      );
      expect(code).toBe(0);
      const line = stdout.split('\n').find((l) => l.startsWith('bench-load-result '));
      return JSON.parse(line?.slice('bench-load-result '.length) ?? '{}') as {
        verdict: string;
        redisStartMs?: number;
        cases: { trap: string | null; status: string }[];
      };
    };
    const reference = grade('solution.ts');
    expect(reference.verdict).toBe('accepted');
    expect(reference.cases.map((c) => c.status)).toEqual(['passed', 'passed', 'passed']);
    expect(reference.redisStartMs).toBeGreaterThan(0);
    const capped = grade('mistakes/capped.ts');
    expect(capped.verdict).toBe('wrong-answer');
    expect(capped.cases.find((c) => c.trap === 'counts-past-three')?.status).toBe('failed');
    expect(starts()).toHaveLength(2);
  });

  test('bench limits: a Redis problem is measured, each run on a server of its own', () => {
    const { env, starts } = counted('bench-limits');
    const { code, stdout } = runScript(repo, ['bench', 'limits', '--only', COUNTER_DIR], { env });
    expect(code).toBe(0);
    expect(stdout).toContain(`${COUNTER_DIR} · many keys [many-keys]`);
    expect(stdout).toMatch(/ {2}time limit 2000 ms · reference \d+ ms · margin/);
    expect(stdout).not.toContain('skipped');
    // Listing the cases, five runs of the reference, one of the known-wrong file: each its own.
    expect(starts().length).toBeGreaterThan(1);
    expect(redisServerPids().filter((pid) => starts().includes(pid))).toEqual([]);
  });
});

describe('without Redis', () => {
  test('grade and mutate judge nothing of a Redis problem, and say why', async () => {
    const grade = runScript(repo, ['grade', COUNTER_DIR, '--json'], { env: NO_REDIS });
    expect(grade.code).toBe(2);
    expect((JSON.parse(grade.stdout) as GradeJson).problems[0]?.verdict).toBe('unavailable');
    const saved = process.env.REDIS_SERVER;
    const savedUrl = process.env.REDIS_URL;
    process.env.REDIS_SERVER = NO_REDIS.REDIS_SERVER;
    delete process.env.REDIS_URL;
    try {
      const io = captureIO();
      // Nothing could be judged: neither proved nor failed.
      expect(await mutate([COUNTER_DIR], io, problems)).toBe(2);
      const out = io.stdout.join('\n');
      expect(out).toMatch(/^redis-tiny-… not judged: needs Redis \(REDIS_SERVER=/m);
      // The row's reason wraps within 80 columns, under itself.
      for (const line of out.split('\n').filter((l) => !l.startsWith('Killed'))) {
        expect(line.length, line).toBeLessThanOrEqual(80);
      }
      expect(out).toMatch(/· 1 not judged$/m);
    } finally {
      if (saved === undefined) delete process.env.REDIS_SERVER;
      else process.env.REDIS_SERVER = saved;
      if (savedUrl !== undefined) process.env.REDIS_URL = savedUrl;
    }
  });

  test('bench --load skips Redis problems loudly, not as flips; nothing left is exit 2', () => {
    const { code, stdout } = runScript(
      repo,
      ['bench', '--load', '--only', `${COUNTER_DIR},${TWIN_DIR}`, '--rounds', '1'],
      { env: NO_REDIS },
    );
    expect(stdout.split('\n')[0]).toBe(
      `*** SKIPPED, not graded and not counted as flips: ${COUNTER_DIR}, ${TWIN_DIR} ` +
        '(needs Redis: REDIS_SERVER=/nonexistent/redis-server is not an executable file; install ' +
        'it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or run ' +
        '`docker run -p 6379:6379 redis:7` and set REDIS_URL=redis://127.0.0.1:6379.) ***',
    );
    expect(stdout).toContain('Nothing to grade');
    // Nothing graded, no table of flips, no burners started.
    expect(stdout).not.toMatch(/grades|burners/);
    expect(code).toBe(2);
  });

  test('bench limits skips a Redis problem with a line saying why', () => {
    const { code, stdout } = runScript(repo, ['bench', 'limits', '--only', COUNTER_DIR], {
      env: NO_REDIS,
    });
    expect(code).toBe(0);
    expect(stdout).toContain(`${COUNTER_DIR} · skipped, not measured: needs Redis (REDIS_SERVER=`);
  });
});

describe('list', () => {
  const lines = (env: Record<string, string | undefined>): string[] => {
    const { code, stdout } = runScript(repo, ['list'], {
      env: { KATA_STATE_DIR: scratchDir('list-state'), ...env },
    });
    expect(code).toBe(0);
    return stdout.trimEnd().split('\n');
  };

  test('marks each Redis problem, and says once under the table that there is no Redis', () => {
    const out = lines(NO_REDIS);
    // Piped: 80 columns, every line within them.
    for (const line of out) expect(line.length, line).toBeLessThanOrEqual(80);
    const marked = out.filter((line) => line.includes('†'));
    expect(marked.filter((line) => /Redis Tiny (Counter|Twin) †/.test(line))).toHaveLength(2);
    expect(out.find((line) => line.includes('Number of Recent Calls'))).not.toContain('†');
    const legend = out.findIndex((line) => line.startsWith('† '));
    expect(out.filter((line) => line.startsWith('† '))).toHaveLength(1);
    expect(
      out
        .slice(legend, legend + 3)
        .join(' ')
        .replace(/ +/g, ' '),
    ).toMatch(
      /^† needs Redis, and this machine has none: REDIS_SERVER=\/nonexistent\/redis-server is not an executable file; install it/,
    );
    // Under the table: after the last row, before the closing line.
    expect(out.at(-1)).toContain('Start with: npm run kata');
    expect(legend).toBeGreaterThan(out.findLastIndex((line) => line.includes('not started')));
  });

  test('with Redis, the mark says where the problems are judged; a password is never shown', () => {
    const url = lines({ REDIS_URL: 'redis://judge:hunter2@127.0.0.1:6390/2' });
    const legend = url.filter((line) => line.startsWith('† ')).join(' ');
    expect(legend).toContain(
      '† needs Redis: judged on REDIS_URL=redis://judge:***@127.0.0.1:6390/2',
    );
    expect(url.join('\n')).not.toContain('hunter2');
    if (realServer) {
      const own = lines({ REDIS_URL: undefined, REDIS_SERVER: realServer });
      expect(own.filter((line) => line.startsWith('† '))).toEqual([
        `† needs Redis: the judge starts its own ${realServer}.`,
      ]);
    }
  });
});
