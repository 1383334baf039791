// The Redis client facade (harness/redis/facade.ts): learner code sealed in a realm gets a client
// built inside that realm, whose calls leave only as strings through the bridge's outbound queue and
// come back as plain data of the realm's own. Run against a real redis-server (startRedis): answers
// are right, Redis's errors arrive with their messages, hostile code finds nothing of the judge, a
// stopped server is a rejection within the client's deadline (none by default, as in node-redis),
// the host's fault switches (forgetScripts, freeze) behave as a flushed or silent server would, and
// nothing is left open. (The typed commands: redis-facade-commands.test.ts.)
import vm from 'node:vm';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { settle } from '../../harness/judge/child/drive-async.ts';
import { createRunner } from '../../harness/judge/child/runner.ts';
import { directPort } from '../../harness/sandbox/port.ts';
import type { AnyClass } from '../../harness/suite.ts';
import { LEARNER_GLOBAL, LearnerRealm } from '../../harness/sandbox/realm.ts';
import { parseOutbound, plainReply } from '../../harness/sandbox/outbound.ts';
import { findRedisServer } from '../../harness/redis/availability.ts';
import { redisClient } from '../../harness/redis/facade.ts';
import { NOSCRIPT_MESSAGE, RedisFacadeHost, refusal } from '../../harness/redis/facade-host.ts';
import { startRedis, type RedisServer } from '../../harness/redis/server.ts';
import { defineSuite, fixture, type FixtureSpec } from '../../harness/suite.ts';

const serverPath = findRedisServer();
if (!serverPath) {
  // Loud on purpose: a machine without Redis must not look as if it had run these tests.
  console.warn('\n*** SKIPPING the Redis facade tests: redis-server is not installed ***\n');
}

/**
 * Walks every object reachable from `queue` (own properties, accessors, prototypes): each must belong
 * to the realm it runs in (its prototype chain ends at that realm's Object.prototype), and no
 * function's constructor may compile code. Runs inside a realm, from its source.
 */
const WALK = String.raw`function walkFrom(queue) {
  const seen = new Set();
  let foreign = 0;
  let compiled = 0;
  const odd = [];
  while (queue.length > 0) {
    const value = queue.pop();
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) continue;
    if (seen.has(value)) continue;
    seen.add(value);
    let root = value;
    while (Object.getPrototypeOf(root) !== null) root = Object.getPrototypeOf(root);
    // Array.prototype[Symbol.unscopables] is the one intrinsic without a prototype.
    if (root !== Object.prototype && value !== Array.prototype[Symbol.unscopables]) {
      foreign++;
      odd.push(Reflect.ownKeys(value).map(String).join(','));
    }
    if (typeof value === 'function') {
      try { value.constructor('return typeof process')(); compiled++; }
      catch (e) { if (!(e instanceof EvalError)) { foreign++; odd.push(String(value.name) + ' ' + String(e)); } }
    }
    queue.push(Object.getPrototypeOf(value));
    for (const key of Reflect.ownKeys(value)) {
      if (key === 'caller' || key === 'arguments') continue;
      const d = Object.getOwnPropertyDescriptor(value, key);
      queue.push(d.value, d.get, d.set);
    }
  }
  return { seen: seen.size, foreign, compiled, odd };
}`;

/** A learner-like class: Lua by scriptLoad + evalSha, falling back to eval on NOSCRIPT. */
const LEARNER = String.raw`
${WALK}
const SCRIPT = "local n = redis.call('INCRBY', KEYS[1], ARGV[1]) return {n, ARGV[1], {KEYS[1], false}}";
class Counter {
  constructor(redis) { this.redis = redis; this.sha = undefined; this.fallbacks = 0; }
  async add(key, by) {
    this.sha ??= await this.redis.scriptLoad(SCRIPT);
    const options = { keys: [key], arguments: [String(by)] };
    try {
      return await this.redis.evalSha(this.sha, options);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      this.fallbacks++;
      return this.redis.eval(SCRIPT, options);
    }
  }
  fallbackCount() { return this.fallbacks; }
  send(...args) { return this.redis.sendCommand(args); }
  async sendError(...args) {
    try { await this.redis.sendCommand(args); return 'no error'; }
    catch (error) {
      return [error instanceof Error, Object.getPrototypeOf(error) === Error.prototype, error.message];
    }
  }
  async evalError(script) {
    try { await this.redis.eval(script, { keys: ['h'] }); return 'no error'; }
    catch (error) { return [error instanceof Error, error.message]; }
  }
  // Everything reachable from the facade, what its calls return and what they reject with.
  async walk() {
    const queue = [this.redis];
    const pending = [
      this.redis.sendCommand(['PING']),
      this.redis.evalSha('0000000000000000000000000000000000000000'),
      this.redis.eval('return {1, {2, "x"}}'),
      this.redis.scriptLoad('return 1'),
    ];
    for (const p of pending) {
      queue.push(p);
      try { queue.push(await p); } catch (error) { queue.push(error); }
    }
    return walkFrom(queue);
  }
  escape() {
    const tries = [
      () => this.redis.constructor.constructor('return process')(),
      () => this.redis.evalSha.constructor('return process')(),
      () => Object.getPrototypeOf(this.redis.sendCommand).constructor('return process')(),
      () => this.redis.sendCommand(['PING']).constructor.constructor('return process')(),
    ];
    return tries.map((t) => { try { return typeof t(); } catch (e) { return e.name; } });
  }
  async hostile() {
    const results = {};
    let reads = 0;
    const options = { get keys() { reads++; return ['k']; }, arguments: [] };
    const p = this.redis.evalSha('0000000000000000000000000000000000000000', options);
    results.readsAtOnce = reads;
    try { await p; } catch (e) { results.noscript = e.message.slice(0, 8); }
    results.readsAfter = reads;
    let thenCalls = 0;
    const thenable = { then(resolve) { thenCalls++; resolve('x'); } };
    const rejected = async (run) => { try { await run(); return 'resolved'; } catch (e) { return e.name + ': ' + e.message; } };
    results.thenableKey = await rejected(() => this.redis.evalSha('x', { keys: [thenable] }));
    results.thenableArgs = await rejected(() => this.redis.sendCommand(thenable));
    results.thenableCommand = await rejected(() => this.redis.sendCommand(['GET', thenable]));
    results.number = await rejected(() => this.redis.eval('return 1', { arguments: [1] }));
    results.thenCalls = thenCalls;
    const trap = new Proxy(['GET', 'k'], { get(t, k, r) { reads++; return Reflect.get(t, k, r); } });
    reads = 0;
    const viaProxy = this.redis.sendCommand(trap);
    results.proxyReadsAtOnce = reads;
    await viaProxy;
    results.proxyReadsAfter = reads;
    results.huge = await rejected(() => this.redis.sendCommand(['SET', 'k', 'x'.repeat(9_000_000)]));
    results.many = await rejected(() => this.redis.sendCommand(new Array(20_000).fill('x')));
    results.empty = await rejected(() => this.redis.sendCommand([]));
    results.refused = await rejected(() => this.redis.sendCommand(['flushall']));
    results.scriptFlush = await rejected(() => this.redis.sendCommand(['SCRIPT', 'FLUSH']));
    return results;
  }
  async big() {
    const value = 'v'.repeat(1_000_000);
    await this.redis.sendCommand(['SET', 'big', value]);
    return (await this.redis.sendCommand(['GET', 'big'])) === value;
  }
  hang() { return this.redis.sendCommand(['BLPOP', 'never', '0']); }
}`;

interface Harness {
  realm: LearnerRealm;
  host: RedisFacadeHost;
  call(method: string, args?: unknown[], deadlineMs?: number): Promise<unknown>;
}

function sealed(url: string, spec: FixtureSpec = redisClient()): Harness {
  const realm = new LearnerRealm([spec.source]);
  const host = new RedisFacadeHost(url);
  realm.attachOutbound(host);
  const loaded = realm.load(
    `var ${LEARNER_GLOBAL} = (() => { ${LEARNER}; return { Counter }; })();`,
    'learner-bundle.js',
    'Counter',
  );
  expect(loaded).toEqual({ ok: true });
  realm.reset({ redis: spec });
  expect(realm.construct(0, [fixture('redis')])).toEqual({ ok: true, value: null });
  return {
    realm,
    host,
    async call(method, args = [], deadlineMs = 3000) {
      const [reply] = await settle(realm, [realm.begin(0, method, args)], deadlineMs);
      if (reply === undefined) return 'unsettled';
      if (!reply.ok) throw new Error(`${reply.error.name}: ${reply.error.message}`);
      return reply.value;
    },
  };
}

describe.skipIf(!serverPath)('the Redis facade, sealed in a realm', () => {
  let server: RedisServer;
  let admin: ReturnType<typeof createClient>;
  const clients = async (): Promise<number> =>
    String(await admin.sendCommand(['CLIENT', 'LIST']))
      .trim()
      .split('\n').length;

  beforeAll(async () => {
    server = await startRedis();
    admin = createClient({ url: server.url, RESP: 2 });
    admin.on('error', () => {});
    await admin.connect();
  });
  afterAll(async () => {
    admin?.destroy();
    await server?.stop();
  });

  test('scriptLoad + evalSha answer plain data; after SCRIPT FLUSH, NOSCRIPT falls back to eval', async () => {
    const { call, host } = sealed(server.url);
    expect(await call('add', ['n', 2])).toEqual([2, '2', ['n', null]]);
    expect(await call('add', ['n', 3])).toEqual([5, '3', ['n', null]]);
    expect(await call('fallbackCount')).toBe(0);
    await admin.scriptFlush();
    expect(await call('add', ['n', 1])).toEqual([6, '1', ['n', null]]);
    expect(await call('fallbackCount')).toBe(1);
    expect(await admin.get('n')).toBe('6');
    expect(await call('big')).toBe(true);
    await host.close();
  });

  test('the walk finds a judge object when one is there (a real client handed in)', () => {
    const context = vm.createContext(Object.create(null) as object, {
      codeGeneration: { strings: false, wasm: false },
    });
    const walkFrom = new vm.Script(`(${WALK})`).runInContext(context) as (q: unknown[]) => {
      foreign: number;
      compiled: number;
    };
    const client = createClient({ url: server.url });
    const walked = walkFrom([client]);
    expect(walked.foreign).toBeGreaterThan(0);
    expect(walked.compiled).toBeGreaterThan(0);
  });

  test('Redis errors are Errors of the realm carrying Redis’s message', async () => {
    const { call, host } = sealed(server.url);
    const unknown = (await call('sendError', ['NOSUCHCOMMAND'])) as unknown[];
    expect(unknown.slice(0, 2)).toEqual([true, true]);
    expect(String(unknown[2])).toMatch(/^ERR unknown command/);
    await admin.hSet('h', 'a', '1');
    const wrongType = (await call('evalError', [
      "return redis.call('INCR', KEYS[1])",
    ])) as unknown[];
    expect(wrongType[0]).toBe(true);
    expect(String(wrongType[1])).toContain('WRONGTYPE');
    const lua = (await call('evalError', ['return nosuch()'])) as unknown[];
    expect(String(lua[1])).toMatch(/ERR .*nosuch/);
    await host.close();
  });

  test('hostile code reaches nothing of the judge through the facade', async () => {
    const { call, host } = sealed(server.url);
    expect(await call('escape')).toEqual(['EvalError', 'EvalError', 'EvalError', 'EvalError']);
    const walked = (await call('walk')) as { seen: number; foreign: number; compiled: number };
    expect(walked.seen).toBeGreaterThan(20);
    expect(walked).toMatchObject({ foreign: 0, compiled: 0, odd: [] });
    const hostile = (await call('hostile', [], 5000)) as Record<string, unknown>;
    expect(hostile).toEqual({
      // Arguments are read once, by the facade, while the learner's own call runs; never later.
      readsAtOnce: 1,
      noscript: 'NOSCRIPT',
      readsAfter: 1,
      thenableKey: expect.stringMatching(/^TypeError: "keys\[0\]" must be of type "string"/),
      thenableArgs: expect.stringMatching(/^TypeError: "args" must be an array/),
      thenableCommand: expect.stringMatching(/^TypeError: "args\[1\]" must be of type "string"/),
      number: expect.stringMatching(/^TypeError: "arguments\[0\]" must be of type "string"/),
      thenCalls: 0,
      proxyReadsAtOnce: expect.any(Number),
      proxyReadsAfter: hostile.proxyReadsAtOnce,
      huge: expect.stringMatching(/^RangeError: .*exceed 8000000 characters/),
      many: expect.stringMatching(/^RangeError: a request carries 1 to 10000 strings/),
      empty: 'TypeError: "args" must name a command',
      refused: 'Error: ERR the judge does not run FLUSHALL for a solution',
      scriptFlush: 'Error: ERR the judge runs only SCRIPT LOAD and SCRIPT EXISTS for a solution',
    });
    await host.close();
  });

  test('a command Redis never answers is rejected at the command deadline, not hung', async () => {
    const { call, host } = sealed(server.url, redisClient({ commandTimeoutMs: 200 }));
    const started = performance.now();
    await expect(call('hang')).rejects.toThrow('Redis did not answer within 200 ms');
    expect(performance.now() - started).toBeLessThan(1500);
    await host.close();
  });

  test('a stopped server is a rejection within the deadline; the case’s clients close with it', async () => {
    const own = await startRedis();
    const { call, realm, host } = sealed(own.url, redisClient({ commandTimeoutMs: 500 }));
    expect(await call('send', ['SET', 'a', '1'])).toBe('OK');
    await own.stop();
    const started = performance.now();
    await expect(call('send', ['GET', 'a'])).rejects.toThrow(/./);
    expect(performance.now() - started).toBeLessThan(1500);
    realm.reset(undefined);
    expect(host.size).toBe(0);
    await host.close();
  });

  test('reset closes the case’s clients and drops answers still on their way', async () => {
    const before = await clients();
    const { realm, host, call } = sealed(server.url);
    expect(await call('send', ['PING'])).toBe('PONG');
    expect(await clients()).toBe(before + 1);
    const ticket = realm.begin(0, 'send', ['BLPOP', 'late', '1']);
    realm.pump();
    realm.reset(undefined);
    await admin.lPush('late', 'x');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(realm.settled(ticket)).toBeUndefined();
    expect(await clients()).toBe(before);
    await host.close();
  });

  test('with default options a command Redis never answers waits, as the real client’s does', async () => {
    const { call, realm, host } = sealed(server.url);
    // The old judge-side default (1000 ms) would have rejected it by now.
    expect(await call('hang', [], 1300)).toBe('unsettled');
    realm.reset(undefined);
    expect(host.size).toBe(0);
    await host.close();
  });

  /** A realm with a Counter on each of `n` clients of one host, built as a case builds them. */
  function instances(n: number, spec: FixtureSpec = redisClient()) {
    const realm = new LearnerRealm([spec.source]);
    const host = new RedisFacadeHost(server.url);
    realm.attachOutbound(host);
    realm.load(
      `var ${LEARNER_GLOBAL} = (() => { ${LEARNER}; return { Counter }; })();`,
      'learner-bundle.js',
      'Counter',
    );
    const newCase = () => {
      realm.reset(Object.fromEntries(Array.from({ length: n }, (_, i) => [`r${i}`, spec])));
      for (let i = 0; i < n; i++) realm.construct(i, [fixture(`r${i}`)]);
    };
    newCase();
    const call = async (target: number, method: string, args: unknown[] = []) => {
      const [reply] = await settle(realm, [realm.begin(target, method, args)], 3000);
      if (reply === undefined) return 'unsettled';
      if (!reply.ok) throw new Error(`${reply.error.name}: ${reply.error.message}`);
      return reply.value;
    };
    return { realm, host, call, newCase };
  }

  /** How many times the server ran `command` since the last CONFIG RESETSTAT. */
  const calls = async (command: string): Promise<number> => {
    const info = String(await admin.sendCommand(['INFO', 'commandstats']));
    return Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
  };

  test('forgetScripts: NOSCRIPT as after a flush, for every client, without reaching the server', async () => {
    const { host, call, newCase } = instances(2);
    const script =
      "local n = redis.call('INCRBY', KEYS[1], ARGV[1]) return {n, ARGV[1], {KEYS[1], false}}";
    const other = 'return 7';
    const sha = await admin.scriptLoad(script);
    const otherSha = await admin.scriptLoad(other);
    expect(await call(0, 'add', ['fs', 1])).toEqual([1, '1', ['fs', null]]);
    // The server's own answer to a script it lacks, to compare with.
    const real = await admin.evalSha('f'.repeat(40)).then(String, (e: Error) => e.message);
    expect(real).toBe(NOSCRIPT_MESSAGE);

    host.forgetScripts();
    await admin.sendCommand(['CONFIG', 'RESETSTAT']);
    for (const target of [0, 1]) {
      expect(await call(target, 'sendError', ['EVALSHA', sha, '1', 'fs', '1'])).toEqual([
        true,
        true,
        real,
      ]);
      expect(await call(target, 'send', ['SCRIPT', 'EXISTS', sha, otherSha.toUpperCase()])).toEqual(
        [0, 0],
      );
    }
    expect(await calls('evalsha')).toBe(0);
    // The server still has both: it was never flushed.
    expect(await admin.scriptExists([sha, otherSha])).toEqual([1, 1]);

    // The learner's fallback: NOSCRIPT, then EVAL, which loads it again for every client.
    expect(await call(0, 'add', ['fs', 1])).toEqual([2, '1', ['fs', null]]);
    expect(await call(0, 'fallbackCount')).toBe(1);
    expect(await call(1, 'send', ['EVALSHA', sha.toUpperCase(), '1', 'fs', '1'])).toEqual([
      3,
      '1',
      ['fs', null],
    ]);
    expect(await call(1, 'send', ['SCRIPT', 'EXISTS', sha, otherSha])).toEqual([1, 0]);
    // SCRIPT LOAD loads one again too.
    expect(await call(1, 'send', ['SCRIPT', 'LOAD', other])).toBe(otherSha);
    expect(await call(0, 'send', ['EVALSHA', otherSha, '0'])).toBe(7);
    expect(await calls('evalsha')).toBe(2);
    expect(await calls('eval')).toBe(1);

    // Forgotten again, then a new case: reset() ends the fault.
    host.forgetScripts();
    expect(await call(0, 'sendError', ['EVALSHA', otherSha, '0'])).toEqual([true, true, real]);
    newCase();
    expect(await call(0, 'send', ['EVALSHA', otherSha, '0'])).toBe(7);
    expect(await call(1, 'add', ['fs', 1])).toEqual([4, '1', ['fs', null]]);
    expect(await call(1, 'fallbackCount')).toBe(0);
    await host.close();
  });

  test('freeze: no answer to a command waiting or a later one until the case ends; nothing leaks', async () => {
    const before = await clients();
    const { realm, host, call, newCase } = instances(2);
    expect(await call(0, 'send', ['SET', 'fz', '1'])).toBe('OK');
    expect(await call(1, 'send', ['PING'])).toBe('PONG');
    const waiting = realm.begin(0, 'send', ['BLPOP', 'fz:list', '0']);
    realm.pump();
    // The BLPOP has reached the server (it is blocked there) before the server "stops".
    for (
      let i = 0;
      i < 100 && !String(await admin.sendCommand(['CLIENT', 'LIST'])).includes('cmd=blpop');
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    host.freeze();
    // Written before the freeze, it runs; its answer is lost.
    await admin.lPush('fz:list', 'x');
    const later = [realm.begin(0, 'send', ['SET', 'fz', '2']), realm.begin(1, 'send', ['PING'])];
    const replies = await settle(realm, [waiting, ...later], 300);
    expect(replies).toEqual([undefined, undefined, undefined]);
    expect(await admin.lLen('fz:list')).toBe(0);
    // Never written: the server never saw the later SET.
    expect(await admin.get('fz')).toBe('1');
    expect(await clients()).toBe(before + 2);

    // The case ends: its clients close, and nothing settles afterwards.
    realm.reset(undefined);
    expect(host.size).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await clients()).toBe(before);
    expect([waiting, ...later].map((ticket) => realm.settled(ticket))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    // The next case has a server that answers.
    newCase();
    expect(await call(0, 'send', ['GET', 'fz'])).toBe('1');
    await host.close();
  });

  test('freeze with a commandTimeoutMs: the client’s own deadline still fires; its timers go with the case', async () => {
    const { realm, host, call, newCase } = instances(1, redisClient({ commandTimeoutMs: 150 }));
    host.freeze();
    const started = performance.now();
    await expect(call(0, 'send', ['PING'])).rejects.toThrow('Redis did not answer within 150 ms');
    expect(performance.now() - started).toBeLessThan(1000);
    // A command still waiting when the case ends takes its timer with it.
    newCase();
    host.freeze();
    const set = vi.spyOn(globalThis, 'setTimeout');
    const cleared = vi.spyOn(globalThis, 'clearTimeout');
    try {
      const ticket = realm.begin(0, 'send', ['PING']);
      realm.pump();
      const made = set.mock.calls.flatMap((args, i) =>
        args[1] === 150 ? [set.mock.results[i]?.value as unknown] : [],
      );
      expect(made).toHaveLength(1);
      realm.reset(undefined);
      expect(cleared.mock.calls.map(([timer]) => timer)).toContain(made[0]);
      expect(realm.settled(ticket)).toBeUndefined();
    } finally {
      set.mockRestore();
      cleared.mockRestore();
    }
    await host.close();
  });

  test('one client per facade: several instances, several connections', async () => {
    const before = await clients();
    const realm = new LearnerRealm([redisClient().source]);
    const host = new RedisFacadeHost(server.url);
    realm.attachOutbound(host);
    realm.load(
      `var ${LEARNER_GLOBAL} = (() => { ${LEARNER}; return { Counter }; })();`,
      'learner-bundle.js',
      'Counter',
    );
    const specs = Object.fromEntries([0, 1, 2].map((i) => [`r${i}`, redisClient()]));
    realm.reset(specs);
    for (const i of [0, 1, 2]) realm.construct(i, [fixture(`r${i}`)]);
    const tickets = [0, 1, 2].map((i) => realm.begin(i, 'add', ['shared', 1]));
    const replies = await settle(realm, tickets, 3000);
    const counts = replies.map((r) => (r?.ok ? (r.value as unknown[])[0] : r)).sort();
    expect(counts).toEqual([1, 2, 3]);
    expect(await clients()).toBe(before + 3);
    await host.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await clients()).toBe(before);
  });

  test('connected() resolves once every client of the case is open, before any command', async () => {
    const before = await clients();
    const realm = new LearnerRealm([redisClient().source]);
    const host = new RedisFacadeHost(server.url);
    realm.attachOutbound(host);
    realm.reset(Object.fromEntries([0, 1, 2, 3].map((i) => [`r${i}`, redisClient()])));
    await realm.connected();
    expect(await clients()).toBe(before + 4);
    // A server that is not there: connected() still resolves, and the commands say why.
    const nowhere = new RedisFacadeHost('redis://127.0.0.1:1');
    nowhere.reset([{ name: 'r0', args: [] }]);
    await nowhere.connected();
    await nowhere.close();
    await host.close();
  });

  test('run directly, as the reference is, the class gets the same facade and the same answers', async () => {
    const Counter = new Function(`${LEARNER}; return Counter;`)() as AnyClass;
    const host = new RedisFacadeHost(server.url);
    const port = directPort(Counter, host);
    port.reset({ redis: redisClient() });
    expect(port.construct(0, [fixture('redis')])).toEqual({ ok: true, value: null });
    const call = async (method: string, args: unknown[]) =>
      (await settle(port, [port.begin!(0, method, args)], 3000))[0];
    expect(await call('add', ['direct', 4])).toEqual({
      ok: true,
      value: [4, '4', ['direct', null]],
    });
    await admin.scriptFlush();
    expect(await call('add', ['direct', 1])).toEqual({
      ok: true,
      value: [5, '1', ['direct', null]],
    });
    expect(await call('fallbackCount', [])).toEqual({ ok: true, value: 1 });
    expect(await call('sendError', ['FLUSHALL'])).toEqual({
      ok: true,
      value: [true, true, 'ERR the judge does not run FLUSHALL for a solution'],
    });
    port.reset(undefined);
    expect(host.size).toBe(0);
    await host.close();
  });

  test('a realm without a host refuses an outbound fixture', () => {
    const realm = new LearnerRealm([redisClient().source]);
    expect(() => realm.reset({ redis: redisClient() })).toThrow(/needs redis/);
  });
});

describe('what comes out of the realm is checked as hostile input', () => {
  test('malformed takes are refused', () => {
    expect(parseOutbound('')).toEqual([]);
    expect(parseOutbound('[[0,"r",["PING"]]]')).toEqual([{ id: 0, channel: 'r', args: ['PING'] }]);
    for (const bad of [
      '{}',
      '[[0,"r",[]]]',
      '[[0,"r",[1]]]',
      '[[-1,"r",["PING"]]]',
      '[[0.5,"r",["PING"]]]',
      '[[0,7,["PING"]]]',
      '[[0,"r",["PING"],1]]',
      42,
    ]) {
      expect(() => parseOutbound(bad), String(bad)).toThrow();
    }
  });

  test('only plain data goes back in', () => {
    expect(plainReply([1, 'a', null, [Buffer.from('b')]])).toEqual([1, 'a', null, ['b']]);
    expect(plainReply({ a: 1 })).toBeUndefined();
    expect(plainReply(Infinity)).toBeUndefined();
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(plainReply(deep)).toBeUndefined();
    expect(plainReply(['x'.repeat(9_000_000)])).toBeUndefined();
  });

  test('commands that reach beyond a solution’s keys are refused', () => {
    expect(refusal(['GET', 'k'])).toBeUndefined();
    expect(refusal(['script', 'load', 'return 1'])).toBeUndefined();
    expect(refusal(['Config', 'SET', 'x', 'y'])).toMatch(/CONFIG/);
    expect(refusal(['SCRIPT', 'KILL'])).toMatch(/SCRIPT LOAD/);
    expect(refusal(['SHUTDOWN'])).toMatch(/SHUTDOWN/);
  });
});

describe('a suite with Redis clients', () => {
  const suite = (async: boolean) =>
    defineSuite({
      reference: class Counter {},
      async,
      cases: [
        {
          name: 'one call',
          tier: 'example',
          trap: null,
          fixtures: { redis: redisClient() },
          methods: ['Counter', 'send'],
          args: [[fixture('redis')], ['PING']],
          expected: [null, 'PONG'],
        },
      ],
    });

  test('is refused in a synchronous case, where no request would ever go out', () => {
    expect(() => createRunner(suite(false))).toThrow(/needs an async case/);
  });

  test('tells the child which services its realm needs a way to', () => {
    expect(createRunner(suite(true)).outbound).toEqual(['redis']);
  });
});
