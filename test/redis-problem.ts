// A copy of the repo holding two temporary problems that require Redis ("requires": ["redis"]), each
// with a tiny async suite of one Redis client fixture (harness/redis/facade.ts), for the tests of
// how kata, grade, the bench, mutate and the problem checks start (or borrow) a Redis:
// redis-judge-start.test.ts, redis-url-acl.test.ts and redis-infra-*.test.ts. Their keys go
// through redisKey, so that on a user's server (REDIS_URL) they fall under the judge's prefix.
// Each is a whole problem (statement, hints, a known-wrong file): test/problem-checks.ts proves it.
// Stubs are the reference unless asked otherwise: judged, they are Accepted.
// Also here: whether this machine can run tests that need Redis (redisForTests).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { redisAvailability } from '../harness/redis/availability.ts';
import { copyRepo } from '../scripts/lib/repo-copy.ts';
import { scratchDir } from './helpers.ts';

export const COUNTER_DIR = 'redis-tiny-counter';
export const TWIN_DIR = 'redis-tiny-twin';

/** INCRBY in a script: the reference, and the stub (Accepted). */
export const REFERENCE = `
// Its own type of the client: the file type-checks anywhere, also as a mutant in mutate's folder.
interface Redis {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}
export class TinyCounter {
  constructor(private readonly redis: Redis) {}
  async hit(key: string): Promise<number> {
    const script = "return redis.call('INCRBY', KEYS[1], ARGV[1])";
    const count = await this.redis.eval(script, { keys: [key], arguments: ['1'] });
    return Number(count);
  }
}
`;

/** What `npm run reset` would restore: every method throws the stub's "Not implemented". */
export const STUB = `
export class TinyCounter {
  constructor(redis: unknown) {}
  async hit(key: string): Promise<number> {
    throw new Error('Not implemented: TinyCounter.hit');
  }
}
`;

/** The known-wrong file: a counter that stops at three (the core case counts to five). */
export const CAPPED = `
interface Redis {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}
export const expectation = { verdict: 'wrong-answer', trap: 'counts-past-three' };
export class TinyCounter {
  constructor(private readonly redis: Redis) {}
  async hit(key: string): Promise<number> {
    const script = "return redis.call('INCRBY', KEYS[1], ARGV[1])";
    const count = await this.redis.eval(script, { keys: [key], arguments: ['1'] });
    return Math.min(Number(count), 3);
  }
}
`;

/** Waits on Redis (BLPOP of a list nobody fills) before counting: a grade that lasts seconds. */
export const SLOW = `
export class TinyCounter {
  constructor(private readonly redis: any) {}
  async hit(key: string): Promise<number> {
    for (let i = 0; i < 3; i++) await this.redis.sendCommand(['BLPOP', key + ':never', '0.8']);
    return (await this.redis.eval("return redis.call('INCR', KEYS[1])", { keys: [key] })) as number;
  }
}
`;

/**
 * Reaches for the user's data from Lua and with plain commands, then fails with what Redis said to
 * each attempt (as JSON), so that the report shows it.
 */
export const HOSTILE = `
export class TinyCounter {
  constructor(private readonly redis: any) {}
  async hit(key: string): Promise<number> {
    const said: Record<string, string> = {};
    const attempt = async (name: string, run: () => Promise<unknown>) => {
      try { said[name] = 'ran: ' + JSON.stringify(await run()); } catch (e) { said[name] = String((e as Error).message); }
    };
    await attempt('flushall', () => this.redis.eval("return redis.call('FLUSHALL')", { keys: [] }));
    await attempt('flushdb', () => this.redis.eval("return redis.call('FLUSHDB')", { keys: [] }));
    await attempt('swapdb', () => this.redis.eval("return redis.call('SWAPDB', '0', '1')", { keys: [] }));
    await attempt('luaSet', () => this.redis.eval("return redis.call('SET', 'user:precious', 'gone')", { keys: [] }));
    await attempt('luaDel', () => this.redis.eval("return redis.call('DEL', 'user:precious')", { keys: [] }));
    await attempt('set', () => this.redis.sendCommand(['SET', 'user:other', 'gone']));
    await attempt('scan', () => this.redis.sendCommand(['SCAN', '0']));
    await attempt('scriptFlush', () => this.redis.eval("return redis.call('SCRIPT', 'FLUSH')", { keys: [] }));
    await attempt('aclFromLua', () => this.redis.eval("return redis.call('ACL', 'SETUSER', 'evil', 'on', 'nopass', '~*', '+@all')", { keys: [] }));
    await attempt('own', () => this.redis.eval("return redis.call('INCR', KEYS[1])", { keys: [key] }));
    throw new Error('SAID ' + JSON.stringify(said));
  }
}
`;

const SUITE = `
import { defineSuite, fixture } from '../../harness/suite.ts';
import { redisClient, redisKey } from '../../harness/redis/facade.ts';
import { TinyCounter } from './solution.ts';
export default defineSuite({
  reference: TinyCounter,
  async: true,
  callDeadlineMs: 4000,
  cases: [
    {
      name: 'counts its key',
      tier: 'example',
      trap: null,
      fixtures: { redis: redisClient({ commandTimeoutMs: 3000 }) },
      methods: ['TinyCounter', 'hit', 'hit', 'hit'],
      args: [[fixture('redis')], [redisKey('a')], [redisKey('a')], [redisKey('b')]],
      expected: [null, 1, 2, 1],
    },
    {
      name: 'counts past three',
      tier: 'core',
      trap: 'counts-past-three',
      hint: 'A key hit five times has been hit five times: nothing caps the count.',
      fixtures: { redis: redisClient({ commandTimeoutMs: 3000 }) },
      methods: ['TinyCounter', 'hit', 'hit', 'hit', 'hit', 'hit'],
      args: [[fixture('redis')], ...Array.from({ length: 5 }, () => [redisKey('c')])],
      expected: [null, 1, 2, 3, 4, 5],
    },
    {
      name: 'many keys',
      tier: 'follow-up',
      trap: 'many-keys',
      hint: 'Every key has a count of its own, however many keys there are.',
      // A limit of its own, for the bench's limits section to measure.
      timeLimitMs: 2000,
      fixtures: { redis: redisClient({ commandTimeoutMs: 3000 }) },
      methods: ['TinyCounter', ...Array.from({ length: 8 }, () => 'hit')],
      args: [[fixture('redis')], ...Array.from({ length: 8 }, (_, i) => [redisKey(\`k\${i}\`)])],
      expected: [null, ...Array.from({ length: 8 }, () => 1)],
    },
  ],
});
`;

/** The statement: its example is the suite's, as the problem checks require. */
const statement = (title: string): string => `# ${title}

Count hits of a key in Redis.

## Example

\`\`\`text
calls:   ["TinyCounter", "hit", "hit", "hit"]
args:    [[{"$fixture": "redis"}], ["a"], ["a"], ["b"]]
returns: [null, 1, 2, 1]
\`\`\`

## Follow-ups the judge also checks

- \`many-keys\` — many keys at once.
`;

const HINTS = JSON.stringify([
  'Redis counts for you.',
  'INCR answers the new count.',
  'One INCR per hit, on the key.',
]);

export interface RedisProblemsOptions {
  /** Ship the stubs as a learner gets them (Not Started), not the reference. */
  shippedStubs?: boolean;
}

/** A copy of the repo with the two Redis problems added (stubs: the reference, or shippedStubs). */
export function repoWithRedisProblems(label: string, options: RedisProblemsOptions = {}): string {
  const repo = copyRepo(scratchDir(label));
  const base = JSON.parse(
    readFileSync(
      path.join(repo, 'solutions', '933-number-of-recent-calls', 'problem.json'),
      'utf8',
    ),
  ) as Record<string, unknown>;
  for (const [dir, title, order] of [
    [COUNTER_DIR, 'Redis Tiny Counter', 98],
    [TWIN_DIR, 'Redis Tiny Twin', 99],
  ] as const) {
    const solutions = path.join(repo, 'solutions', dir);
    const problems = path.join(repo, 'problems', dir);
    mkdirSync(solutions, { recursive: true });
    mkdirSync(problems, { recursive: true });
    writeFileSync(
      path.join(solutions, 'problem.json'),
      JSON.stringify({ ...base, title, className: 'TinyCounter', order, requires: ['redis'] }),
    );
    writeFileSync(path.join(solutions, 'suite.ts'), SUITE);
    writeFileSync(path.join(solutions, 'solution.ts'), REFERENCE);
    writeFileSync(path.join(solutions, 'stub.ts'), STUB);
    writeFileSync(path.join(solutions, 'hints.json'), HINTS);
    mkdirSync(path.join(solutions, 'mistakes'));
    writeFileSync(path.join(solutions, 'mistakes', 'capped.ts'), CAPPED);
    writeFileSync(path.join(problems, 'solution.ts'), options.shippedStubs ? STUB : REFERENCE);
    writeFileSync(path.join(problems, 'README.md'), statement(title));
  }
  // 933's stub is its reference too: a problem without Redis, judged Accepted, beside them.
  const dir933 = '933-number-of-recent-calls';
  writeFileSync(
    path.join(repo, 'problems', dir933, 'solution.ts'),
    readFileSync(path.join(repo, 'solutions', dir933, 'solution.ts'), 'utf8'),
  );
  return repo;
}

/** `--dir` material: DIR/<problem>/solution.ts holding `source` for both Redis problems. */
export function solutionsDir(label: string, source: string): string {
  const dir = scratchDir(label);
  for (const problem of [COUNTER_DIR, TWIN_DIR]) {
    mkdirSync(path.join(dir, problem));
    writeFileSync(path.join(dir, problem, 'solution.ts'), source);
  }
  return dir;
}

/**
 * An executable standing for redis-server: it appends its pid to `log` (the server's pid, since it
 * then execs the real one), so a test learns how many servers were started, and which.
 */
export function loggingServer(realServer: string, label: string): { path: string; log: string } {
  const dir = scratchDir(label);
  const log = path.join(dir, 'starts.log');
  const file = path.join(dir, 'redis-server');
  writeFileSync(file, `#!/bin/sh\necho $$ >> '${log}'\nexec '${realServer}' "$@"\n`);
  chmodSync(file, 0o755);
  return { path: file, log };
}

export function startedPids(log: string): number[] {
  try {
    return readFileSync(log, 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Whether tests of `what` that need Redis can run here: 'available' (REDIS_URL, REDIS_SERVER or
 * redis-server on PATH); else 'skip', said in one loud line, since a machine without Redis must
 * not look as if it had run them; else 'required' when WINDOW_KATAS_REQUIRE_REDIS is set (.ci/run
 * sets it after installing redis-server): there a skip would hide a broken install, so the caller
 * fails instead.
 */
export function redisForTests(
  what: string,
  env: NodeJS.ProcessEnv = process.env,
  warn: (line: string) => void = console.warn,
): 'available' | 'skip' | 'required' {
  const availability = redisAvailability(env);
  if (availability.available) return 'available';
  if (env.WINDOW_KATAS_REQUIRE_REDIS) return 'required';
  warn(
    `\n*** SKIPPING ${what}: redis-server not found (${availability.reason}; CI installs it: ` +
      `.ci/run) ***\n`,
  );
  return 'skip';
}

/** Every redis-server process on the machine now (pgrep). */
export function redisServerPids(): number[] {
  const found = spawnSync('pgrep', ['-x', 'redis-server'], { encoding: 'utf8' });
  return found.stdout.split('\n').filter(Boolean).map(Number);
}

export async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

/** A command of the copy run as `npm run` would run it, without npm, so that its pid is node's. */
export function startCommand(
  repo: string,
  args: string[],
  env: Record<string, string | undefined>,
): ChildProcess & {
  output: () => string;
  exited: Promise<{ code: number | null; signal: string | null }>;
} {
  const child = spawn(process.execPath, ['scripts/launch.mjs', ...args], {
    cwd: repo,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return Object.assign(child, { output: () => output, exited });
}
