// The facade's typed commands (harness/redis/facade.ts) against the `redis` package itself: every
// command, with each shape of its arguments, runs once through the facade sealed in a learner's
// realm and once through a real client (node-redis over RESP2, as the judge's host uses), on a real
// redis-server, and the two answers must be equal, errors included. That is what shows the facade
// builds the same commands and converts the replies the same way, so that code judged here runs
// unchanged on the real client.
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { settle } from '../../harness/judge/child/drive-async.ts';
import { LEARNER_GLOBAL, LearnerRealm } from '../../harness/sandbox/realm.ts';
import { findRedisServer } from '../../harness/redis/availability.ts';
import { makeRedisFacade, MULTI_REQUEST, redisClient } from '../../harness/redis/facade.ts';
import { batchOf, RedisFacadeHost } from '../../harness/redis/facade-host.ts';
import { startRedis, type RedisServer } from '../../harness/redis/server.ts';
import { fixture } from '../../harness/suite.ts';

const serverPath = findRedisServer();
if (!serverPath) {
  // Loud on purpose: a machine without Redis must not look as if it had run these tests.
  console.warn(
    '\n*** SKIPPING the Redis facade command tests: redis-server is not installed ***\n',
  );
}

/**
 * Runs one command, or a transaction, on the client it is given, and says what came of it. The
 * same source runs in the learner's realm (on the facade) and in the test's (on a real client).
 * Arguments cross into the realm as JSON, so a Map is written { $map: entries } and built here.
 */
const PROBE = String.raw`
class Probe {
  constructor(redis) { this.redis = redis; }
  static revive(value) {
    if (Array.isArray(value)) return value.map((item) => Probe.revive(item));
    if (value !== null && typeof value === 'object') {
      if ('$map' in value) return new Map(value.$map);
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, Probe.revive(v)]));
    }
    return value;
  }
  static failed(error) {
    return { error: error instanceof Error ? error.message : String(error), type: error instanceof TypeError };
  }
  async run(method, args) {
    try {
      return { value: await this.redis[method](...Probe.revive(args)) };
    } catch (error) {
      return Probe.failed(error);
    }
  }
  async transaction(steps) {
    try {
      let chain = this.redis.multi();
      for (const [method, ...args] of steps) chain = chain[method](...Probe.revive(args));
      return { value: await chain.exec() };
    } catch (error) {
      return Probe.failed(error);
    }
  }
}`;

type Outcome = { value: unknown } | { error: string; type: boolean };
type Step = [method: string, ...args: unknown[]];
/** A step names its keys through `k`, so that each client works on keys of its own. */
type Steps = (k: (name: string) => string) => Step[];

const SCRIPT =
  "return {tonumber(ARGV[1]) + 1, false, true, 'x', {2.5, redis.call('EXISTS', KEYS[1])}}";

/** Every typed command, with each shape of arguments node-redis takes, in an order that builds state. */
const COMMANDS: Steps = (k) => [
  ['time'],
  ['set', k('s'), 'v'],
  ['set', k('s'), 5, { PX: 100_000, NX: true }],
  ['set', k('s2'), 7, { PX: 100_000, NX: true }],
  ['set', k('s3'), 'x', { EX: 100, GET: true }],
  ['set', k('s3'), 'y', { expiration: { type: 'PX', value: 50_000 }, condition: 'XX', GET: true }],
  ['set', k('s4'), 'z', { expiration: 'KEEPTTL' }],
  ['set', k('s4'), 'z', { KEEPTTL: true, XX: true }],
  ['set', k('s5'), 1.5, { EXAT: 4_000_000_000 }],
  ['set', k('s6'), '', { PXAT: 4_000_000_000_000, NX: true }],
  ['get', k('s')],
  ['get', k('s5')],
  ['get', k('missing')],
  ['del', k('s4')],
  ['del', [k('s3'), k('nope')]],
  ['exists', k('s')],
  ['exists', [k('s'), k('s'), k('nope')]],
  ['incr', k('n')],
  ['incrBy', k('n'), 41],
  ['incrBy', k('n'), '-2'],
  ['expire', k('n'), 100],
  ['expire', k('n'), 50, 'GT'],
  ['pExpire', k('n'), 200_000, 'GT'],
  ['pExpire', k('nope'), 1000],
  ['ttl', k('n')],
  ['pTTL', k('n')],
  ['ttl', k('nope')],
  ['pTTL', k('s')],
  ['hSet', k('h'), 'a', 1],
  ['hSet', k('h'), 2, 'two'],
  ['hSet', k('h'), { b: '2', c: 3 }],
  [
    'hSet',
    k('h'),
    [
      ['d', 4],
      ['e', '5'],
    ],
  ],
  ['hSet', k('h'), ['f', 6]],
  [
    'hSet',
    k('h'),
    {
      $map: [
        ['g', 7],
        [8, 'eight'],
      ],
    },
  ],
  ['hGet', k('h'), 'a'],
  ['hGet', k('h'), 'zz'],
  ['hmGet', k('h'), ['a', 'zz', 'c']],
  ['hmGet', k('h'), 'b'],
  ['hGetAll', k('h')],
  ['hGetAll', k('nope')],
  ['hDel', k('h'), 'a'],
  ['hDel', k('h'), ['b', 'zz']],
  ['zAdd', k('z'), { score: 1, value: 'a' }],
  [
    'zAdd',
    k('z'),
    [
      { score: 2.5, value: 'b' },
      { score: Infinity, value: 'top' },
      { score: -Infinity, value: 'bottom' },
      { score: 1, value: 'c' },
    ],
  ],
  ['zAdd', k('z'), { score: 0, value: 'a' }, { GT: true, CH: true }],
  ['zAdd', k('z'), { score: 3, value: 'a' }, { comparison: 'GT', CH: true }],
  ['zAdd', k('z'), { score: 9, value: 'new' }, { XX: true }],
  ['zAdd', k('z'), { score: 9, value: 'a' }, { condition: 'NX' }],
  ['zAdd', k('z'), { score: 0.5, value: 'c' }, { LT: true, CH: true }],
  ['zCard', k('z')],
  ['zCard', k('nope')],
  ['zCount', k('z'), 1, 3],
  ['zCount', k('z'), '-inf', '+inf'],
  ['zCount', k('z'), -Infinity, Infinity],
  ['zCount', k('z'), '(1', 3],
  ['zRange', k('z'), 0, -1],
  ['zRange', k('z'), '1', '2'],
  ['zRange', k('z'), 1, 3, { BY: 'SCORE' }],
  ['zRange', k('z'), '+inf', '-inf', { BY: 'SCORE', REV: true, LIMIT: { offset: 0, count: 2 } }],
  ['zRange', k('z'), '[a', '[c', { BY: 'LEX' }],
  ['zRangeWithScores', k('z'), 0, -1],
  ['zRangeWithScores', k('z'), 0, 2.5, { BY: 'SCORE', REV: false }],
  ['zRangeWithScores', k('nope'), 0, -1],
  ['zRemRangeByScore', k('z'), '-inf', 1],
  ['zRemRangeByScore', k('z'), 9, Infinity],
  ['zRem', k('z'), 'b'],
  ['zRem', k('z'), ['top', 'zz']],
  ['zRange', k('z'), 0, -1],
  // The script family and raw commands, whose replies are not converted.
  ['scriptLoad', SCRIPT],
  ['eval', SCRIPT, { keys: [k('s')], arguments: ['41'] }],
  ['eval', 'return 1'],
  ['sendCommand', ['HGETALL', k('h')]],
  ['sendCommand', ['ZRANGE', k('z'), '0', '-1', 'WITHSCORES']],
];

/** Arguments the real client refuses or fails on, and Redis errors: the same rejection either way. */
const ERRORS: Steps = (k) => [
  ['get', 123],
  ['get', null],
  ['hGet', k('h'), 5],
  ['hmGet', k('h'), ['a', 1]],
  ['del', [k('a'), 7]],
  ['zRem', k('z'), [2]],
  ['zAdd', k('z'), { score: 1, value: 2 }],
  ['zAdd', k('z'), { score: 'x', value: 'a' }],
  ['zAdd', k('z'), []],
  ['incrBy', k('n'), undefined],
  ['pExpire', k('n'), null],
  ['expire', k('n'), 5, 'BOGUS'],
  ['set', k('s'), undefined],
  ['set', k('s'), 'v', { PX: undefined, EX: null }],
  ['incr', k('h')],
  ['hSet', k('s'), 'a', 'b'],
  ['hSet', k('h'), null],
  ['zRange', k('z'), 0, -1, { LIMIT: { offset: 0 } }],
  ['zCount', k('z'), 'x', 1],
];

/** Transactions: converted replies in order, and the ways one fails. */
const TRANSACTIONS: ((k: (name: string) => string) => Step[])[] = [
  (k) => [
    ['hSet', k('m'), { tokens: '1', last: 2 }],
    ['pExpire', k('m'), 100_000],
    [
      'zAdd',
      k('mz'),
      [
        { score: 1, value: 'a' },
        { score: Infinity, value: 'b' },
      ],
    ],
    ['hGetAll', k('m')],
    ['hmGet', k('m'), ['tokens', 'nope']],
    ['zRangeWithScores', k('mz'), 0, -1],
    ['zRange', k('mz'), 0, -1],
    ['get', k('nope')],
    ['set', k('ms'), 3, { PX: 100_000 }],
    ['incrBy', k('ms'), 4],
    ['exists', [k('m'), k('ms')]],
    ['ttl', k('m')],
    ['zCard', k('mz')],
    ['zCount', k('mz'), 0, '+inf'],
    ['zRem', k('mz'), 'a'],
    ['zRemRangeByScore', k('mz'), 0, Infinity],
    ['hDel', k('m'), 'tokens'],
    ['expire', k('ms'), 100],
    ['incr', k('ms')],
    ['hGet', k('m'), 'last'],
    ['del', [k('m'), k('ms')]],
  ],
  () => [],
  // A command that fails while the transaction runs: the others still run; exec() rejects.
  (k) => [
    ['set', k('t'), 'x'],
    ['incr', k('t')],
    ['set', k('t2'), 'y'],
  ],
  (k) => [['get', k('t2')]],
  // A bad argument: thrown when chained (nothing is sent), or when exec() encodes it: then, as in
  // node-redis, exec() rejects with it, and the transaction goes out without that command.
  (k) => [
    ['set', k('t3'), 'z'],
    ['pExpire', k('t3'), undefined],
  ],
  (k) => [
    ['set', k('t3'), 'z'],
    ['hGet', k('t3'), 5],
  ],
  (k) => [['exists', k('t3')]],
];

/** As the judge's host makes its clients: over RESP2. */
const createRealClient = (url: string) => createClient({ url, RESP: 2 });

interface Side {
  run(method: string, args: unknown[]): Promise<Outcome>;
  transaction(steps: Step[]): Promise<Outcome>;
}

/** The probe on a real client, in this realm. */
function realSide(client: unknown): Side {
  const Probe = new Function(`${PROBE}; return Probe;`)() as new (redis: unknown) => Side;
  return new Probe(client);
}

/** The probe sealed in a learner's realm, on the facade. */
function facadeSide(url: string): Side & { host: RedisFacadeHost } {
  const realm = new LearnerRealm([redisClient().source]);
  const host = new RedisFacadeHost(url);
  realm.attachOutbound(host);
  expect(
    realm.load(
      `var ${LEARNER_GLOBAL} = (() => { ${PROBE}; return { Probe }; })();`,
      'learner-bundle.js',
      'Probe',
    ),
  ).toEqual({ ok: true });
  realm.reset({ redis: redisClient() });
  expect(realm.construct(0, [fixture('redis')])).toEqual({ ok: true, value: null });
  const call = async (method: string, args: unknown[]): Promise<Outcome> => {
    const [reply] = await settle(realm, [realm.begin(0, method, args)], 3000);
    if (reply === undefined) throw new Error(`${method} did not settle`);
    if (!reply.ok) throw new Error(`${reply.error.name}: ${reply.error.message}`);
    return reply.value as Outcome;
  };
  return {
    host,
    run: (method, args) => call('run', [method, args]),
    transaction: (steps) => call('transaction', [steps]),
  };
}

/**
 * The same facade made here, in the test's realm, from the function itself rather than its source
 * text: what the judge's realm runs beside the reference, and the only way coverage can see the
 * facade's code. Its requests go straight to a host of its own.
 */
function directSide(url: string): Side & { host: RedisFacadeHost } {
  const host = new RedisFacadeHost(url);
  host.reset([{ name: 'redis', args: [{}] }]);
  let id = 0;
  const post = (args: string[]): Promise<unknown> =>
    new Promise((resolve, reject) =>
      host.dispatch({ id: id++, channel: 'redis', args }, (answer) =>
        answer.ok ? resolve(answer.value) : reject(new Error(answer.message)),
      ),
    );
  const Probe = new Function(`${PROBE}; return Probe;`)() as new (redis: unknown) => Side;
  const probe = new Probe(makeRedisFacade(post).handle);
  return { host, run: (m, a) => probe.run(m, a), transaction: (steps) => probe.transaction(steps) };
}

/** Equal, but for a clock read twice: TIME within a second, a PTTL within 100 ms. */
function expectSame(method: string, facade: Outcome, real: Outcome, what: string): void {
  if ('value' in real && 'value' in facade) {
    if (method === 'time') {
      const [[s1, us1], [s2, us2]] = [facade.value, real.value] as [
        [string, string],
        [string, string],
      ];
      expect(
        [s1, us1, s2, us2].every((n) => /^\d+$/.test(n as string)),
        what,
      ).toBe(true);
      expect((facade.value as unknown[]).length, what).toBe(2);
      const diff = Number(s1) * 1e6 + Number(us1) - (Number(s2) * 1e6 + Number(us2));
      expect(Math.abs(diff), what).toBeLessThan(1e6);
      return;
    }
    if (method === 'pTTL' && typeof real.value === 'number' && real.value > 0) {
      expect(typeof facade.value, what).toBe('number');
      expect(Math.abs((facade.value as number) - real.value), what).toBeLessThan(100);
      return;
    }
  }
  expect(facade, what).toEqual(real);
}

describe.skipIf(!serverPath)('the facade’s typed commands answer as the real client does', () => {
  let server: RedisServer;
  let client: ReturnType<typeof createRealClient>;
  let real: Side;
  let facade: Side & { host: RedisFacadeHost };
  let direct: Side & { host: RedisFacadeHost };

  beforeAll(async () => {
    server = await startRedis();
    client = createRealClient(server.url);
    client.on('error', () => {});
    await client.connect();
    real = realSide(client);
    facade = facadeSide(server.url);
    direct = directSide(server.url);
  });
  afterAll(async () => {
    await facade?.host.close();
    await direct?.host.close();
    client?.destroy();
    await server?.stop();
  });

  /** Runs each step on both, the real client first, each on keys of its own; compares. */
  async function compare(steps: Steps, group: string): Promise<number> {
    const realSteps = steps((name) => `real:${group}:${name}`);
    const facadeSteps = steps((name) => `facade:${group}:${name}`);
    let errors = 0;
    for (let i = 0; i < realSteps.length; i++) {
      const [method, ...args] = realSteps[i] as Step;
      const expected = await real.run(method, args);
      const actual = await facade.run(method, (facadeSteps[i] as Step).slice(1));
      if ('error' in expected) errors++;
      expectSame(method, actual, expected, `${group} step ${i}: ${JSON.stringify(realSteps[i])}`);
      const directSteps = steps((name) => `direct:${group}:${name}`);
      const here = await direct.run(method, (directSteps[i] as Step).slice(1));
      expectSame(method, here, expected, `${group} step ${i}, made here`);
    }
    return errors;
  }

  test('every command, every shape of its arguments', async () => {
    // All of them answered: a step that failed on both would prove nothing here.
    expect(await compare(COMMANDS, 'commands')).toBe(0);
  });

  test('bad arguments and Redis errors reject alike', async () => {
    await compare(
      (k) => [
        ['hSet', k('h'), 'a', '1'],
        ['set', k('s'), 'v'],
      ],
      'errors',
    );
    const steps = ERRORS((name) => `real:errors:${name}`);
    expect(await compare(ERRORS, 'errors')).toBe(steps.length);
  });

  test('multi(): one MULTI … EXEC, replies converted as each command’s', async () => {
    let failures = 0;
    for (const [i, steps] of TRANSACTIONS.entries()) {
      const expected = await real.transaction(steps((name) => `real:multi:${name}`));
      const actual = await facade.transaction(steps((name) => `facade:multi:${name}`));
      if ('error' in expected) failures++;
      expect(actual, `transaction ${i}`).toEqual(expected);
      const here = await direct.transaction(steps((name) => `direct:multi:${name}`));
      expect(here, `transaction ${i}, made here`).toEqual(expected);
    }
    expect(failures).toBe(3);
    const first = await facade.transaction(TRANSACTIONS[0]!((name) => `facade:again:${name}`));
    expect((first as { value: unknown[] }).value).toHaveLength(21);
  });

  test('evalSha, with the SHA1 scriptLoad gave', async () => {
    const sha = await client.scriptLoad(SCRIPT);
    expect(await facade.run('scriptLoad', [SCRIPT])).toEqual({ value: sha });
    const args = (k: string) => [sha, { keys: [k], arguments: ['1'] }];
    expect(await facade.run('evalSha', args('facade:k'))).toEqual(
      await real.run('evalSha', args('real:k')),
    );
  });
});

describe('a transaction’s request, checked by the judge', () => {
  test('is read back into its commands', () => {
    expect(batchOf([MULTI_REQUEST])).toEqual([]);
    expect(batchOf([MULTI_REQUEST, '2', 'GET', 'k', '3', 'SET', 'k', 'v'])).toEqual([
      ['GET', 'k'],
      ['SET', 'k', 'v'],
    ]);
  });

  test('malformed, refused or script commands are answered with an error', () => {
    for (const bad of [
      [MULTI_REQUEST, '0'],
      [MULTI_REQUEST, '3', 'GET', 'k'],
      [MULTI_REQUEST, '01', 'PING'],
      [MULTI_REQUEST, 'x', 'PING'],
      [MULTI_REQUEST, '1', 'PING', '2'],
    ]) {
      expect(batchOf(bad), JSON.stringify(bad)).toBe('ERR a malformed transaction');
    }
    expect(batchOf([MULTI_REQUEST, '1', 'PING', '1', 'flushall'])).toMatch(/does not run FLUSHALL/);
    expect(batchOf([MULTI_REQUEST, '2', 'SCRIPT', 'FLUSH'])).toMatch(/SCRIPT LOAD/);
    expect(batchOf([MULTI_REQUEST, '3', 'evalsha', 'x', '0'])).toBe(
      'ERR the judge runs EVALSHA outside a transaction only',
    );
    expect(batchOf([MULTI_REQUEST, '1', 'MULTI'])).toMatch(/does not run MULTI/);
  });
});
