// The Redis client facade end to end in the child (worker.ts): a suite declares Redis client
// fixtures, the child is handed a Redis URL with the problem, builds one facade (and one real
// connection) per fixture inside the learner's realm, and judges async cases against a real
// redis-server. A race of many instances is counted exactly; a hostile solution finds no way out;
// a case's connections are gone when its result is sent, and the problem's when it is closed.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ChildMessage, ParentMessage } from '../harness/judge/child/protocol.ts';
import { compileLearner, runnerBundle } from '../harness/judge/compile.ts';
import { judge as judgeFile } from '../harness/judge/judge.ts';
import type { Problem } from '../harness/judge/problems.ts';
import { findRedisServer } from '../harness/redis/availability.ts';
import { startRedis, type RedisServer } from '../harness/redis/server.ts';
import { scratchDir, writeLearnerFile } from './helpers.ts';

const serverPath = findRedisServer();
if (!serverPath) {
  // Loud on purpose: a machine without Redis must not look as if it had run these tests.
  console.warn('\n*** SKIPPING the Redis facade child tests: redis-server is not installed ***\n');
}

const HARNESS = path.resolve(import.meta.dirname, '../harness');
const INSTANCES = 20;
const LIMIT = 7;

/** The kata's shape: a limiter in Lua, loaded once, re-sent on NOSCRIPT. */
const REFERENCE = `
import type { RedisFacade } from ${JSON.stringify(`${HARNESS}/redis/facade.ts`)};
const SCRIPT = \`
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local limit = tonumber(ARGV[1])
if used < limit then redis.call('INCR', KEYS[1]) return {1, limit - used - 1} end
return {0, 0}\`;
export class RedisLimiter {
  private sha: string | undefined;
  constructor(private readonly redis: RedisFacade, private readonly limit: number) {}
  async allow(key: string): Promise<{ allowed: boolean; remaining: number }> {
    this.sha ??= await this.redis.scriptLoad(SCRIPT);
    const options = { keys: [key], arguments: [String(this.limit)] };
    let reply;
    try {
      reply = await this.redis.evalSha(this.sha, options);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      reply = await this.redis.eval(SCRIPT, options);
    }
    const [allowed, remaining] = reply as [number, number];
    return { allowed: allowed === 1, remaining };
  }
}`;

/** GET, then SET after an await (typed commands, as with the real client): the race a Redis kata is built to catch. */
const GET_THEN_SET = `
import type { RedisClient } from ${JSON.stringify(path.resolve(HARNESS, '../problems/redis-client.ts'))};
export class RedisLimiter {
  constructor(private readonly redis: RedisClient, private readonly limit: number) {}
  async allow(key: string) {
    const used = Number((await this.redis.get(key)) ?? '0');
    if (used >= this.limit) return { allowed: false, remaining: 0 };
    await this.redis.multi().set(key, used + 1, { PX: 60_000 }).exec();
    return { allowed: true, remaining: this.limit - used - 1 };
  }
}`;

/** Tries every door out of the realm it can think of, and answers as if allowed. */
const HOSTILE = `
export class RedisLimiter {
  constructor(private readonly redis: any, private readonly limit: number) {}
  async allow(key: string) {
    const found: string[] = [];
    const tries = [
      () => this.redis.constructor.constructor('return process')(),
      () => this.redis.sendCommand.constructor('return process')(),
      () => Object.getPrototypeOf(async () => {}).constructor('return process')(),
      () => (globalThis as any).process,
      () => (globalThis as any).require,
    ];
    for (const t of tries) { try { const p = t(); if (p) found.push(typeof p); } catch {} }
    try { await this.redis.sendCommand(['CONFIG', 'SET', 'maxmemory', '1']); found.push('config'); } catch {}
    try { await this.redis.sendCommand(['SHUTDOWN', 'NOSAVE']); found.push('shutdown'); } catch {}
    const reply = await this.redis.sendCommand(['PING', { then: (r: any) => r('x') } as any]).catch((e: Error) => e);
    if (!(reply instanceof Error)) found.push('thenable');
    if (found.length > 0) throw new Error('escaped: ' + found.join(','));
    return { allowed: true, remaining: 0 };
  }
}`;

const SUITE = `
import { defineSuite, parallel } from ${JSON.stringify(`${HARNESS}/suite.ts`)};
import { fixture } from ${JSON.stringify(`${HARNESS}/suite.ts`)};
import { redisClient } from ${JSON.stringify(`${HARNESS}/redis/facade.ts`)};
${REFERENCE}
const clients = Object.fromEntries(Array.from({ length: ${INSTANCES} }, (_, i) => ['redis' + i, redisClient()]));
export default defineSuite({
  reference: RedisLimiter,
  async: true,
  callDeadlineMs: 2000,
  cases: [
    {
      name: 'three calls',
      tier: 'example',
      trap: null,
      fixtures: { redis0: redisClient() },
      methods: ['RedisLimiter', 'allow', 'allow', 'allow'],
      args: [[fixture('redis0'), 2], ['a'], ['a'], ['a']],
      expected: [null, { allowed: true, remaining: 1 }, { allowed: true, remaining: 0 }, { allowed: false, remaining: 0 }],
    },
    {
      name: 'a race of ${INSTANCES} servers',
      tier: 'core',
      trap: 'exact-under-concurrency',
      hint: 'read and write in one script',
      fixtures: clients,
      generate: (emit) => {
        for (let i = 0; i < ${INSTANCES}; i++) {
          emit({ method: 'RedisLimiter', args: [fixture('redis' + i), ${LIMIT}], expected: null, target: i });
        }
        emit(parallel(Array.from({ length: ${INSTANCES} }, (_, i) => ({ method: 'allow', args: ['race'], target: i })), { allowed: true }, [${LIMIT}, ${LIMIT}]));
      },
      describe: '${INSTANCES} instances, one connection each, one call each at once',
    },
  ],
});`;

const root = scratchDir('redis-facade-child');
const problemDir = path.join(root, 'redis-limiter');
const suiteFile = writeLearnerFile(problemDir, 'suite.ts', SUITE);
writeFileSync(path.join(problemDir, 'solution.ts'), REFERENCE);

const problem: Problem = {
  title: 'Redis limiter',
  difficulty: 'Medium',
  className: 'RedisLimiter',
  order: 0,
  idea: 'a limiter in a Lua script',
  dir: 'redis-limiter',
  id: 'redis-limiter',
  slug: 'redis-limiter',
  statementFile: path.join(problemDir, 'README.md'),
  stubFile: path.join(problemDir, 'stub.ts'),
  referenceFile: path.join(problemDir, 'solution.ts'),
  suiteFile,
  mistakesDir: path.join(problemDir, 'mistakes'),
  requires: ['redis'],
};

describe.skipIf(!serverPath)('Redis client fixtures in the child', () => {
  let server: RedisServer;
  let admin: ReturnType<typeof createClient>;
  let handleMessage: (message: ParentMessage) => void;
  const sent: ChildMessage[] = [];
  const originalSend = process.send;
  /**
   * Connections of learner code: neither this test's own nor the judge's (AdminConnection in
   * worker.ts), which clears the judgement's keys with SCAN and UNLINK before each case, checks
   * with PING after it that no script of the learner's runs on, and stays open with the problem.
   */
  const learnerClients = async (): Promise<number> =>
    String(await admin.sendCommand(['CLIENT', 'LIST']))
      .trim()
      .split('\n')
      .filter((line) => !/ cmd=(client\|list|scan|unlink|ping) /.test(line)).length;

  beforeAll(async () => {
    server = await startRedis();
    admin = createClient({ url: server.url, RESP: 2 });
    admin.on('error', () => {});
    await admin.connect();
    // worker.ts takes process.send when first imported: replaced first, as in worker.test.ts.
    process.send = ((message: ChildMessage) => {
      sent.push(message);
      return true;
    }) as typeof process.send;
    ({ handleMessage } = (await import('../harness/judge/child/worker.ts')) as {
      handleMessage: (message: ParentMessage) => void;
    });
  });
  afterAll(async () => {
    process.send = originalSend;
    admin?.destroy();
    await server?.stop();
  });

  /** Opens the problem with `source` as the learner's file and runs every case. */
  async function judge(name: string, source: string) {
    await admin.flushAll();
    const learnerFile = writeLearnerFile(path.join(root, 'learners'), `${name}.ts`, source);
    const compiled = await compileLearner(learnerFile);
    if (!compiled.ok) throw new Error(compiled.message);
    sent.length = 0;
    handleMessage({
      type: 'open',
      runner: await runnerBundle(suiteFile),
      learnerFile,
      className: 'RedisLimiter',
      redisUrl: server.url,
    });
    handleMessage({ type: 'load', code: compiled.code, libraries: compiled.libraries });
    expect(sent.map((m) => m.type)).toEqual(['cases', 'ready']);
    const results = [];
    for (const index of [0, 1]) {
      sent.length = 0;
      handleMessage({ type: 'run', index });
      for (let i = 0; i < 1000 && !sent.some((m) => m.type === 'result'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const result = sent.find((m) => m.type === 'result');
      if (result?.type !== 'result') throw new Error(`case ${index} gave no result`);
      // The case's connections are closed by the time its result is sent.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await learnerClients()).toBe(0);
      results.push(result.result);
    }
    handleMessage({ type: 'close' });
    // Closing the problem closes every connection the judge opened for it, its own included.
    let open = Infinity;
    for (let i = 0; i < 40 && open > 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      open = String(await admin.sendCommand(['CLIENT', 'LIST']))
        .trim()
        .split('\n').length;
    }
    expect(open).toBe(1);
    return results;
  }

  test('the reference passes: Lua through the facade, one connection per instance', async () => {
    const [example, race] = await judge('reference', REFERENCE);
    expect(example).toMatchObject({ status: 'passed' });
    expect(race).toMatchObject({ status: 'passed', totalCalls: INSTANCES + 1 });
  });

  test('GET then SET loses the race and is caught', async () => {
    const [example, race] = await judge('get-then-set', GET_THEN_SET);
    expect(example).toMatchObject({ status: 'passed' });
    expect(race).toMatchObject({ status: 'failed' });
    const step = (race as { calls: { method: string; actual: string }[] }).calls.at(-1);
    expect(step?.method).toBe('parallel');
    expect(step?.actual).toMatch(new RegExp(`^\\d+ of ${INSTANCES} match`));
    expect(step?.actual).not.toBe(`${LIMIT} of ${INSTANCES} match {allowed:true}`);
  });

  test('a hostile solution finds no way out and changes nothing on the server', async () => {
    const [example] = await judge('hostile', HOSTILE);
    // It answers "allowed" where the example expects a refusal: a wrong answer, not an escape.
    expect(example).toMatchObject({ status: 'failed' });
    expect(JSON.stringify(example)).not.toContain('escaped');
    expect(await admin.configGet('maxmemory')).toEqual({ maxmemory: '0' });
    expect(await admin.ping()).toBe('PONG');
  });
});

describe.skipIf(!serverPath)('Redis client fixtures, judged end to end in a child process', () => {
  let server: RedisServer;
  let admin: ReturnType<typeof createClient>;

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

  const judgeSource = async (name: string, source: string) => {
    await admin.flushAll();
    const solutionFile = writeLearnerFile(path.join(root, 'judged'), `${name}.ts`, source);
    return judgeFile({
      problem,
      solutionFile,
      typeCheck: false,
      redis: async () => ({ redisUrl: server.url }),
    });
  };

  test('the reference is accepted, GET then SET is not; no connection is left open', async () => {
    const accepted = await judgeSource('reference', REFERENCE);
    expect(accepted.cases.map((c) => c.message ?? c.status)).toEqual(['passed', 'passed']);
    expect(accepted.verdict).toBe('accepted');
    const racy = await judgeSource('get-then-set', GET_THEN_SET);
    expect(racy.verdict).toBe('wrong-answer');
    expect(racy.cases.map((c) => c.status)).toEqual(['passed', 'failed']);
    // The judge's own connection closes with its child, a moment after the verdict.
    let clients: string[] = [];
    for (let i = 0; i < 60; i++) {
      clients = String(await admin.sendCommand(['CLIENT', 'LIST']))
        .trim()
        .split('\n');
      if (clients.length === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(clients).toHaveLength(1);
  });
});
