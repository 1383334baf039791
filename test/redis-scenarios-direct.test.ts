// The Redis katas' scenarios, played in this process on a real Redis: each kata's reference passes
// every case, and a known-wrong file fails the case of its trap. The problem checks prove the same
// through the judge's child process; here the judge's side of a scenario (the admin connection, the
// oracle, the timelines, the shared scenarios and checks) runs where a test can watch it, and the
// admin connection's own rules are checked: it reads only the judge's keys, and only with reads.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { answerEquals } from '../harness/judge/child/drive.ts';
import { driveScenario } from '../harness/judge/child/drive-scenario.ts';
import { directPort } from '../harness/judge/child/port.ts';
import { REDIS_PREFIX_GLOBAL } from '../harness/judge/child/protocol.ts';
import { AdminConnection, globEscape, keySlot, monitorArgs } from '../harness/redis/admin.ts';
import { findRedisServer } from '../harness/redis/availability.ts';
import { RedisFacadeHost } from '../harness/redis/facade-host.ts';
import { startRedis, type RedisServer } from '../harness/redis/server.ts';
import { isScenario, type AnyClass, type Suite } from '../harness/suite.ts';

const serverPath = findRedisServer();
if (!serverPath) {
  console.warn(
    '\n*** SKIPPING the in-process Redis scenarios: redis-server is not installed ***\n',
  );
}

const PREFIX = 'direct:';

describe('the admin connection’s parts that need no server', () => {
  test('MONITOR lines are read as Redis escapes them', () => {
    expect(monitorArgs('1700000000.123456 [0 127.0.0.1:5555] "EVALSHA" "ab" "1" "k\\"1"')).toEqual({
      source: '127.0.0.1:5555',
      args: ['EVALSHA', 'ab', '1', 'k"1'],
    });
    expect(monitorArgs('1.2 [0 lua] "HSET" "a\\x41\\n" "v"')).toEqual({
      source: 'lua',
      args: ['HSET', 'aA\n', 'v'],
    });
    expect(monitorArgs('OK')).toBeUndefined();
  });

  test('hash slots are Redis Cluster’s, hash tags included', () => {
    expect(keySlot('foo')).toBe(12182);
    expect(keySlot('{user}:a')).toBe(keySlot('{user}:b'));
    expect(keySlot('{}x')).toBe(keySlot('{}x'));
    expect(keySlot('{}x')).not.toBe(keySlot('x'));
  });

  test('a prefix is matched literally by SCAN', () => {
    expect(globEscape('a*b?[c]\\')).toBe('a\\*b\\?\\[c\\]\\\\');
  });
});

describe.skipIf(!serverPath)('scenarios played in this process', () => {
  let server: RedisServer;
  let host: RedisFacadeHost;
  let admin: AdminConnection;
  const holder = globalThis as Record<string, unknown>;

  beforeAll(async () => {
    server = await startRedis();
    host = new RedisFacadeHost(server.url);
    await host.ready();
    admin = new AdminConnection(server.url, PREFIX, () => host);
    holder[REDIS_PREFIX_GLOBAL] = PREFIX;
  });
  afterAll(async () => {
    delete holder[REDIS_PREFIX_GLOBAL];
    admin?.close();
    await host?.close();
    await server?.stop();
  });

  /** Plays every scenario of a suite against `cls`; the name of each case it failed. */
  async function failures(suite: Suite, cls: AnyClass, only?: (name: string) => boolean) {
    const failed: string[] = [];
    for (const c of suite.cases) {
      if (!isScenario(c) || (only && !only(c.name))) continue;
      await admin.clearKeys();
      const port = directPort(cls, host);
      const driven = await driveScenario(
        c,
        port,
        {
          className: 'X',
          equals: answerEquals(),
          keepAll: true,
          stopAfterDivergence: false,
          fixtures: c.fixtures,
          callDeadlineMs: c.callDeadlineMs ?? 2000,
        },
        { redis: admin, skewClock: () => {} },
      );
      port.reset(undefined);
      if (driven.divergedAt !== undefined || driven.thrown || driven.unsettled) failed.push(c.name);
    }
    return failed;
  }

  const kata = async (dir: string) => ({
    suite: ((await import(`../solutions/${dir}/suite.ts`)) as { default: Suite }).default,
    reference: Object.values(
      (await import(`../solutions/${dir}/solution.ts`)) as Record<string, unknown>,
    ).find((v) => typeof v === 'function') as AnyClass,
    wrong: async (file: string) =>
      Object.values(
        (await import(`../solutions/${dir}/wrong/${file}`)) as Record<string, unknown>,
      ).find((v) => typeof v === 'function') as AnyClass,
  });

  test('redis-token-bucket: the reference passes every case; no-ttl fails on TTLs', async () => {
    const { suite, reference, wrong } = await kata('redis-token-bucket');
    expect(await failures(suite, reference)).toEqual([]);
    const noTtl = await wrong('no-ttl.ts');
    const ttlCases = (name: string) => name === 'ttl-after-every-call' || name === 'example-2';
    expect(await failures(suite, noTtl, ttlCases)).toEqual(['example-2', 'ttl-after-every-call']);
  }, 60_000);

  test('redis-sliding-window-log: the reference passes every case; a racy design fails the race', async () => {
    const { suite, reference, wrong } = await kata('redis-sliding-window-log');
    expect(await failures(suite, reference)).toEqual([]);
    const racy = await wrong('trim-count-then-add.ts');
    expect(await failures(suite, racy, (name) => name === 'concurrent-burst')).toEqual([
      'concurrent-burst',
    ]);
  }, 60_000);

  test('the admin connection reads only the judge’s keys, and only with reads', async () => {
    await admin.clearKeys();
    await expect(admin.pttl('someone-else:k')).rejects.toThrow('only its own keys');
    await expect(admin.read(['DEL', `${PREFIX}k`])).rejects.toThrow('not DEL');
    await expect(admin.read(['GET', 'someone-else:k'])).rejects.toThrow('only its own keys');
    expect(await admin.read(['GET', `${PREFIX}missing`])).toBeNull();
    expect(await admin.pttl(`${PREFIX}missing`)).toBe(-2);
    expect(await admin.keys()).toEqual([]);
    const before = await admin.now();
    expect(await admin.waitUntil(before + 20)).toBeGreaterThanOrEqual(before + 20);
  });
});
