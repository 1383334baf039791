// kata and grade start the judge's own redis-server for the problems that require Redis, and only
// for them: one server per command, however many such problems, handed to each of them, and gone
// when the command ends: normally, on Ctrl-C (SIGINT), and on kill -9 (the guardian's doing).
// Servers are counted by a stand-in redis-server that logs its pid, then execs the real one; "gone"
// is checked against pgrep.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findRedisServer } from '../harness/redis/availability.ts';
import { RedisStartError } from '../harness/redis/server.ts';
import { CommandRedis, redisStartLine } from '../harness/redis/session.ts';
import type { RedisHome, RedisTarget } from '../harness/redis/target.ts';
import { runScript, scratchDir } from './helpers.ts';
import {
  COUNTER_DIR,
  loggingServer,
  redisServerPids,
  repoWithRedisProblems,
  SLOW,
  solutionsDir,
  startCommand,
  startedPids,
  TWIN_DIR,
  until,
} from './redis-problem.ts';

const realServer = findRedisServer();
if (!realServer) {
  // Loud on purpose: a machine without Redis must not look as if it had run these tests.
  console.warn(
    '\n*** SKIPPING the tests of the judge starting Redis: redis-server is not installed ***\n',
  );
}

const alive = (pid: number): boolean => redisServerPids().includes(pid);

describe('CommandRedis', () => {
  const fakeTarget = (log: string[], n: number, prefix = ''): RedisTarget => ({
    url: `redis://fake/${n}`,
    adminUrl: `redis://checks/${n}`,
    keyPrefix: `${prefix}${n}:`,
    owned: true,
    close: async () => void log.push(`close ${n}`),
  });
  const fakeHome = (log: string[], prefix = '', warning?: string): RedisHome => ({
    judgement: async (n) => {
      log.push(`judgement ${n}`);
      return fakeTarget(log, n, prefix);
    },
    ...(warning === undefined ? {} : { warning }),
    close: async () => void log.push('close'),
  });
  const withoutRelease = ({ release, ...rest }: { release?: unknown }) => {
    expect(typeof release).toBe('function');
    return rest;
  };

  test('nothing is started for a problem that does not require Redis; a Redis of its own for each judgement', async () => {
    const log: string[] = [];
    const listening = process.listenerCount('SIGINT');
    const said: string[] = [];
    const redis = new CommandRedis(
      async () => {
        log.push('open');
        return fakeHome(log);
      },
      (line) => said.push(line),
    );
    expect(await redis.optionsFor({})).toEqual({});
    expect(await redis.optionsFor({ requires: [] })).toEqual({});
    expect(redis.started).toBe(false);
    const options = await Promise.all([
      redis.optionsFor({ requires: ['redis'] }),
      redis.optionsFor({ requires: ['redis'] }),
      redis.optionsFor({ requires: ['redis'] }),
    ]);
    // Each judgement, even those asked for at once, has a Redis of its own.
    expect(options.map(withoutRelease)).toEqual(
      [1, 2, 3].map((n) => ({
        redisUrl: `redis://fake/${n}`,
        redisAdminUrl: `redis://checks/${n}`,
        redisKeyPrefix: `${n}:`,
      })),
    );
    expect(log).toEqual(['open', 'judgement 1', 'judgement 2', 'judgement 3']);
    // A judgement done gives its Redis back at once (and once); the others go with the command.
    await options[1]?.release?.();
    await options[1]?.release?.();
    expect(log.slice(4)).toEqual(['close 2']);
    // The judge's own server has nothing to warn about.
    expect(said).toEqual([]);
    // While it runs, Ctrl-C is its business (it cleans up, then exits); afterwards no longer.
    expect(process.listenerCount('SIGINT')).toBe(listening + 1);
    await redis.close();
    await redis.close();
    expect(log.slice(5).sort()).toEqual(['close', 'close 1', 'close 3']);
    expect(process.listenerCount('SIGINT')).toBe(listening);
    await expect(redis.optionsFor({ requires: ['redis'] })).rejects.toThrow(/ending/);
  });

  test('a signal the command listens for itself closes Redis and leaves the ending to it', async () => {
    const log: string[] = [];
    const redis = new CommandRedis(async () => {
      log.push('open');
      return fakeHome(log);
    });
    await redis.optionsFor({ requires: ['redis'] });
    // As kata's watch mode does: it quits on SIGINT, then returns (and closes again, harmlessly).
    let quit = false;
    const own = (): void => {
      quit = true;
    };
    process.on('SIGINT', own);
    try {
      process.emit('SIGINT', 'SIGINT');
      await redis.close();
      // Still running: the command's own listener ended it, not an exit here.
      expect(quit).toBe(true);
      expect(log).toEqual(['open', 'judgement 1', 'close 1', 'close']);
    } finally {
      process.off('SIGINT', own);
    }
  });

  test('a user server: its warning said once, before any judgement; a failed start is reported, closing still works', async () => {
    const listening = process.listenerCount('SIGINT');
    const said: string[] = [];
    const url = new CommandRedis(
      async () => fakeHome([], 'p:', 'scripts may leave your server BUSY'),
      (line) => said.push(line),
    );
    expect(withoutRelease(await url.optionsFor({ requires: ['redis'] }))).toEqual({
      redisUrl: 'redis://fake/1',
      redisAdminUrl: 'redis://checks/1',
      redisKeyPrefix: 'p:1:',
    });
    await url.optionsFor({ requires: ['redis'] });
    expect(said).toEqual(['scripts may leave your server BUSY']);
    await url.close();
    const failing = new CommandRedis(() =>
      Promise.reject(
        new RedisStartError('redis-server exited with status 1 before it was ready\nx\n# Oops'),
      ),
    );
    const error = await failing.optionsFor({ requires: ['redis'] }).catch((e: unknown) => e);
    expect(redisStartLine(error as RedisStartError)).toBe(
      'redis-server exited with status 1 before it was ready: # Oops',
    );
    await failing.close();
    expect(process.listenerCount('SIGINT')).toBe(listening);
  });
});

describe.skipIf(!realServer)('kata and grade with the judge’s own redis-server', () => {
  let repo: string;
  let before: number[];
  beforeAll(() => {
    repo = repoWithRedisProblems('redis-judge-start');
    before = redisServerPids();
  });
  afterAll(() => {
    // No test leaves a server of its own behind (other processes' servers may come and go).
    const left = redisServerPids().filter((pid) => !before.includes(pid));
    expect(left.filter((pid) => startedHere.has(pid))).toEqual([]);
  });
  const startedHere = new Set<number>();

  function env(label: string) {
    const server = loggingServer(realServer as string, label);
    return {
      server,
      env: {
        REDIS_URL: undefined,
        REDIS_SERVER: server.path,
        KATA_STATE_DIR: scratchDir(`${label}-state`),
      },
    };
  }

  const starts = (log: string): number[] => {
    const pids = startedPids(log);
    pids.forEach((pid) => startedHere.add(pid));
    return pids;
  };

  test('grade of problems without Redis starts none', () => {
    const { server, env: vars } = env('no-redis-needed');
    const { code, stdout } = runScript(repo, ['grade', '933', '--fresh'], { env: vars });
    expect(stdout).toMatch(/^933 .* Accepted/m);
    expect(code).toBe(0);
    expect(starts(server.log)).toEqual([]);
  });

  test('grade: a server for each Redis problem, both Accepted, all gone when grade ends', () => {
    const { server, env: vars } = env('grade-two');
    const { code, stdout } = runScript(
      repo,
      ['grade', COUNTER_DIR, '933', TWIN_DIR, '--json', '--fresh'],
      { env: vars },
    );
    const problems = (JSON.parse(stdout) as { problems: { dir: string; verdict: string }[] })
      .problems;
    expect(problems.map((p) => [p.dir, p.verdict])).toEqual([
      [COUNTER_DIR, 'accepted'],
      ['933-number-of-recent-calls', 'accepted'],
      [TWIN_DIR, 'accepted'],
    ]);
    expect(code).toBe(0);
    // One each: a problem's scripts, memory or loops cannot reach another's judgement.
    const pids = starts(server.log);
    expect(pids).toHaveLength(2);
    // Stopped before grade exits, not later by their guardians: gone the moment grade is.
    for (const pid of pids) expect(alive(pid)).toBe(false);
  });

  test('kata --once: the server is started for the kata and gone when it ends', () => {
    const { server, env: vars } = env('kata-once');
    const { code, stdout } = runScript(repo, ['kata', COUNTER_DIR, '--once'], { env: vars });
    expect(stdout).toContain('Accepted');
    expect(code).toBe(0);
    const pids = starts(server.log);
    expect(pids).toHaveLength(1);
    expect(alive(pids[0] as number)).toBe(false);
  });

  test('a redis-server that cannot start: kata says why in one line (exit 2), grade lists it apart', () => {
    const broken = loggingServer('/bin/false', 'broken-server');
    const vars = { REDIS_URL: undefined, REDIS_SERVER: broken.path };
    const kata = runScript(repo, ['kata', COUNTER_DIR, '--once'], { env: vars });
    expect(kata.code).toBe(2);
    expect(kata.stderr).toMatch(/redis-server exited with status 1 before it was ready/);
    const grade = runScript(repo, ['grade', COUNTER_DIR, '933', '--json', '--fresh'], {
      env: vars,
    });
    const problems = (
      JSON.parse(grade.stdout) as { problems: { dir: string; verdict: string; message?: string }[] }
    ).problems;
    expect(problems.map((p) => [p.dir, p.verdict])).toEqual([
      [COUNTER_DIR, 'unavailable'],
      ['933-number-of-recent-calls', 'accepted'],
    ]);
    expect(problems[0]?.message).toMatch(/exited with status 1/);
    expect(grade.code).toBe(0);
  });

  test.each([
    ['SIGINT (Ctrl-C)', 'SIGINT' as const],
    ['kill -9', 'SIGKILL' as const],
  ])('%s of grade in the middle of judging leaves no server', async (_, signal) => {
    const { server, env: vars } = env(`killed-${signal}`);
    const slow = solutionsDir(`slow-${signal}`, SLOW);
    const grade = startCommand(
      repo,
      ['grade', '--dir', slow, COUNTER_DIR, TWIN_DIR, '--fresh', '--json'],
      vars,
    );
    try {
      // Started, and the first case waiting on it (BLPOP): the grade is far from done.
      expect(await until(() => startedPids(server.log).length > 0, 20_000)).toBe(true);
      const [pid] = starts(server.log) as [number];
      expect(await until(() => alive(pid), 5000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 700));
      grade.kill(signal);
      const exit = await grade.exited;
      if (signal === 'SIGINT') {
        // Cleaned up, then exited as a command stopped by Ctrl-C does.
        expect(exit).toEqual({ code: 130, signal: null });
        expect(alive(pid)).toBe(false);
      } else {
        expect(exit.signal).toBe('SIGKILL');
        // Nobody stopped it: its guardian saw the pipe close and killed it.
        expect(await until(() => !alive(pid), 3000)).toBe(true);
      }
      expect(grade.output()).not.toMatch(/"problems"/);
    } finally {
      grade.kill('SIGKILL');
    }
  });
});
