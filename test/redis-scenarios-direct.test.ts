// The Redis katas' scenarios, played in this process on a real Redis: each kata's reference passes
// every case, and a known-wrong file fails the case of its trap. The problem checks prove the same
// through the judge's child process; here the judge's side of a scenario (the admin connection, the
// oracle, the timelines, the shared scenarios and checks) runs where a test can watch it, and the
// admin connection's own rules are checked: it reads only the judge's keys, and only with reads.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { answerEquals } from '../harness/judge/child/drive.ts';
import { driveScenario } from '../harness/judge/child/drive-scenario.ts';
import { directPort } from '../harness/sandbox/port.ts';
import { AdminConnection, globEscape, keySlot, monitorArgs } from '../harness/redis/admin.ts';
import { findRedisServer } from '../harness/redis/availability.ts';
import { REDIS_PREFIX_GLOBAL } from '../harness/redis/facade.ts';
import { RedisFacadeHost } from '../harness/redis/facade-host.ts';
import { startRedis, type RedisServer } from '../harness/redis/server.ts';
import { isScenario, type AnyClass, type RedisAdmin, type Suite } from '../harness/suite.ts';

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

  /**
   * The admin connection as a judge that gets little CPU sees it: every read of the clock, a TTL
   * or the keys answered `ms` late, so the judge's reads lie far apart on Redis's clock.
   */
  const slowJudge = (ms: number): RedisAdmin => {
    const late = <T>(value: Promise<T>): Promise<T> =>
      value.then((v) => new Promise<T>((resolve) => setTimeout(() => resolve(v), ms)));
    return {
      now: () => late(admin.now()),
      pttl: (key) => late(admin.pttl(key)),
      keys: () => late(admin.keys()),
      waitUntil: (at) => admin.waitUntil(at),
      snapshot: () => admin.snapshot(),
      read: (args) => admin.read(args),
      seed: (key, members, expiresAt) => admin.seed(key, members, expiresAt),
      forgetScripts: () => admin.forgetScripts(),
      freeze: () => admin.freeze(),
      refuseAll: (message) => admin.refuseAll(message),
      watchScripts: () => admin.watchScripts(),
    };
  };

  /** Plays every scenario of a suite against `cls`; the name of each case it failed. */
  async function failures(
    suite: Suite,
    cls: AnyClass,
    only?: (name: string) => boolean,
    redis: RedisAdmin = admin,
  ) {
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
        { redis, skewClock: () => {} },
      );
      port.reset(undefined);
      if (driven.divergedAt !== undefined || driven.thrown || driven.unsettled) {
        failed.push(c.name);
        if (process.env.SHOW_FAILURES)
          console.log(c.name, JSON.stringify(driven.records.slice(-3)));
      }
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
        (await import(`../solutions/${dir}/mistakes/${file}`)) as Record<string, unknown>,
      ).find((v) => typeof v === 'function') as AnyClass,
  });

  test('redis-token-bucket: the reference passes every case; no-ttl fails on TTLs', async () => {
    const { suite, reference, wrong } = await kata('redis-token-bucket');
    expect(await failures(suite, reference)).toEqual([]);
    const noTtl = await wrong('no-ttl.ts');
    const ttlCases = (name: string) => name === 'ttl-after-every-call' || name === 'example-2';
    expect(await failures(suite, noTtl, ttlCases)).toEqual(['example-2', 'ttl-after-every-call']);
  }, 60_000);

  test('redis-token-bucket: an honest constant TTL, and one in whole seconds, pass every case', async () => {
    const { suite } = await kata('redis-token-bucket');
    for (const file of ['constant-ttl-bucket.ts', 'seconds-ttl-bucket.ts']) {
      const module = (await import(`./fixtures/redis-honest/${file}`)) as Record<string, unknown>;
      expect(await failures(suite, module.RedisTokenBucket as AnyClass), file).toEqual([]);
    }
  }, 60_000);

  test('the expiry and key checks hold for a judge whose reads come 60 ms late', async () => {
    // A read of TIME, then PTTL, 60 ms apart: the old check (50 ms of slack) failed here.
    const expiry = (name: string) =>
      ['example-2', 'ttl-after-every-call', 'idle-keys-vanish'].includes(name);
    const bucket = await kata('redis-token-bucket');
    expect(await failures(bucket.suite, bucket.reference, expiry, slowJudge(60))).toEqual([]);
    const log = await kata('redis-sliding-window-log');
    expect(await failures(log.suite, log.reference, expiry, slowJudge(60))).toEqual([]);
    // …and still tell a key that expires too soon.
    const early = await bucket.wrong('expire-on-create.ts');
    expect(await failures(bucket.suite, early, expiry, slowJudge(60))).toContain(
      'ttl-after-every-call',
    );
    const firstOnly = await log.wrong('expire-on-first-entry.ts');
    expect(await failures(log.suite, firstOnly, expiry, slowJudge(60))).toContain(
      'ttl-after-every-call',
    );
  }, 60_000);

  test('redis-sliding-window-log: the reference passes every case; a racy design fails the race', async () => {
    const { suite, reference, wrong } = await kata('redis-sliding-window-log');
    expect(await failures(suite, reference)).toEqual([]);
    const racy = await wrong('trim-count-then-add.ts');
    expect(await failures(suite, racy, (name) => name === 'concurrent-burst')).toEqual([
      'concurrent-burst',
    ]);
  }, 60_000);

  test('the window’s edge is hit at the millisecond, however late the judge’s reads come', async () => {
    // Reads 150 ms late put the call past the first key's seeded range: the next key's range moves.
    const log = await kata('redis-sliding-window-log');
    const edge = (name: string) => name === 'edge-of-the-window';
    const offByOne = await log.wrong('trim-keeps-the-edge.ts');
    for (const late of [0, 60, 150]) {
      const judge = late === 0 ? admin : slowJudge(late);
      expect(await failures(log.suite, log.reference, edge, judge), `${late} ms`).toEqual([]);
      expect(await failures(log.suite, offByOne, edge, judge), `${late} ms`).toEqual([
        'edge-of-the-window',
      ]);
    }
  }, 60_000);

  test('the admin connection reads only the judge’s keys, and only with reads', async () => {
    await admin.clearKeys();
    await expect(admin.pttl('someone-else:k')).rejects.toThrow('only its own keys');
    await expect(admin.read(['DEL', `${PREFIX}k`])).rejects.toThrow('not DEL');
    await expect(admin.read(['GET', 'someone-else:k'])).rejects.toThrow('only its own keys');
    // It writes only a new log of its own (a seeded sorted set).
    await expect(admin.seed('someone-else:k', [[1, 'a']], 9e12)).rejects.toThrow('own keys');
    await admin.seed(`${PREFIX}log`, [[1, 'a']], 9e12);
    await expect(admin.seed(`${PREFIX}log`, [[2, 'b']], 9e12)).rejects.toThrow('exists');
    expect(await admin.read(['GET', `${PREFIX}missing`])).toBeNull();
    expect(await admin.pttl(`${PREFIX}missing`)).toBe(-2);
    expect(await admin.keys()).toEqual([`${PREFIX}log`]);
    const before = await admin.now();
    expect(await admin.waitUntil(before + 20)).toBeGreaterThanOrEqual(before + 20);
  });
});
