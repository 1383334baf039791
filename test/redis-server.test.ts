// The judge's own redis-server: it starts, answers the pinned client, and never outlives its owner;
// a user's REDIS_URL is touched only under the judge's prefix; a machine without Redis gets one line.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findRedisServer, redisAvailability } from '../harness/redis/availability.ts';
import { deleteKeysWithPrefix } from '../harness/redis/prefix.ts';
import { RedisStartError, startRedis, type RedisServer } from '../harness/redis/server.ts';
import { openRedis } from '../harness/redis/target.ts';
import { REPO_ROOT } from '../harness/paths.ts';
import { scratchDir } from './helpers.ts';

const serverPath = findRedisServer();
if (!serverPath) {
  const availability = redisAvailability({ ...process.env, REDIS_URL: undefined });
  const why = availability.available ? '' : availability.message;
  // Loud on purpose: a machine without Redis must not look as if it had run these tests.
  console.warn(`\n*** SKIPPING the Redis tests. ${why} (CI installs it: .ci/run) ***\n`);
}

// .ci/run sets this after installing redis-server: there, a skip would hide a broken install.
test.runIf(!serverPath && process.env.WINDOW_KATAS_REQUIRE_REDIS)(
  'redis-server is installed',
  () => {
    expect.fail('WINDOW_KATAS_REQUIRE_REDIS is set but redis-server cannot be found');
  },
);

/** Alive, and not a zombie waiting to be reaped (kill(pid, 0) succeeds on zombies). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

/** The plain client the katas pin: createClient({ url }) and nothing else. */
async function plainClient(url: string) {
  const client = createClient({ url });
  client.on('error', () => {});
  await client.connect();
  return client;
}

describe('availability', () => {
  const oneLine = (message: string) => {
    expect(message).not.toContain('\n');
    expect(message).toContain('needs redis-server');
    expect(message).toContain('apt-get install redis-server');
    expect(message).toContain('brew install redis');
    expect(message).toContain('docker run -p 6379:6379 redis:7');
    expect(message).toContain('REDIS_URL');
  };

  test('no redis-server on PATH: one line saying how to get it', () => {
    const result = redisAvailability({ PATH: scratchDir('redis-empty-path') });
    expect(result.available).toBe(false);
    if (!result.available) oneLine(result.message);
  });

  test('REDIS_SERVER pointing at a missing file: no silent fallback to PATH', () => {
    const missing = path.join(scratchDir('redis-missing'), 'redis-server');
    const result = redisAvailability({ REDIS_SERVER: missing, PATH: process.env.PATH });
    expect(result).toMatchObject({ available: false });
    if (!result.available) {
      oneLine(result.message);
      expect(result.message).toContain(missing);
    }
  });

  test('REDIS_URL wins over a local redis-server', () => {
    expect(redisAvailability({ REDIS_URL: 'redis://example:6379', PATH: '' })).toEqual({
      available: true,
      mode: 'url',
      url: 'redis://example:6379',
    });
  });

  test('startRedis without a server rejects with the same line', async () => {
    const env = { PATH: scratchDir('redis-empty-path') };
    await expect(startRedis({ env })).rejects.toThrow(/needs redis-server.*brew install redis/);
  });
});

describe.skipIf(!serverPath)('the judge-owned redis-server', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(() => server?.stop());

  test('listens on loopback only, with no persistence', async () => {
    expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
    const client = await plainClient(server.url);
    try {
      expect(await client.ping()).toBe('PONG');
      const config = (await client.configGet('*')) as Record<string, string>;
      expect(config.save).toBe('');
      expect(config.appendonly).toBe('no');
      expect(config.bind).toBe('127.0.0.1');
      expect(config.dir).toBe(server.dir);
    } finally {
      client.destroy();
    }
  });

  test('the pinned client does EVAL, EVALSHA, SCRIPT FLUSH, TIME and SCAN', async () => {
    const client = await plainClient(server.url);
    try {
      const script = "redis.call('SET', KEYS[1], ARGV[1]); return {tonumber(ARGV[1]), 2.5}";
      // Lua numbers come back as integers: 2.5 is truncated to 2, the trap no-float-truncation uses.
      expect(await client.eval(script, { keys: ['k:1'], arguments: ['7'] })).toEqual([7, 2]);
      const sha = await client.scriptLoad(script);
      expect(await client.evalSha(sha, { keys: ['k:2'], arguments: ['8'] })).toEqual([8, 2]);
      expect(await client.scriptFlush()).toBe('OK');
      await expect(client.evalSha(sha, { keys: ['k:3'], arguments: ['9'] })).rejects.toThrow(
        /NOSCRIPT/,
      );
      const [seconds, micros] = await client.time();
      expect(Math.abs(Number(seconds) * 1000 + Number(micros) / 1000 - Date.now())).toBeLessThan(
        5000,
      );
      const found: string[] = [];
      let cursor = '0';
      do {
        const page = await client.scan(cursor, { MATCH: 'k:*', COUNT: 1 });
        cursor = page.cursor;
        found.push(...page.keys);
      } while (cursor !== '0');
      expect([...new Set(found)].sort()).toEqual(['k:1', 'k:2']);
    } finally {
      client.destroy();
    }
  });
});

describe.skipIf(!serverPath)('no redis-server outlives its owner', () => {
  test('stop() kills the server, frees the port and removes the directory', async () => {
    const server = await startRedis();
    expect(running(server.pid)).toBe(true);
    await server.stop();
    // stop() resolves after the guardian reaped the server: no waiting needed.
    expect(running(server.pid)).toBe(false);
    expect(existsSync(server.dir)).toBe(false);
    const client = createClient({ url: server.url, socket: { reconnectStrategy: false } });
    client.on('error', () => {});
    await expect(client.connect()).rejects.toThrow(/ECONNREFUSED/);
    await server.stop(); // idempotent
  });

  // A child process starts a server and prints its pid, then dies in one of the ways a judge can die.
  const owner = path.join(scratchDir('redis-owner'), 'owner.mts');
  writeFileSync(
    owner,
    `import { spawn } from 'node:child_process';
import { startRedis } from ${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'harness/redis/server.ts')).href)};
const server = await startRedis();
const how = process.argv[2];
// A judge spawns workers after starting Redis: they must not inherit the guardian's pipe, or the
// server would live as long as they do.
const worker = how === 'worker' ? spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' }) : undefined;
console.log(JSON.stringify({ pid: server.pid, dir: server.dir, worker: worker?.pid }));
if (how === 'hang' || how === 'worker') setInterval(() => {}, 1000);
// 'crash' and 'return' die once the test has seen their server run (it closes their stdin), not
// after a delay that a busy machine could outlast. 'return': then nothing keeps the event loop
// alive, and stop() is never called.
if (how === 'crash' || how === 'return') {
  process.stdin.resume();
  process.stdin.once('end', () => {
    if (how === 'crash') throw new Error('learner code crashed the judge');
  });
}
`,
  );

  const deaths = [
    { title: 'owner SIGKILLed', how: 'hang', exit: 'SIGKILL' },
    { title: 'owner SIGKILLed while its own child lives on', how: 'worker', exit: 'SIGKILL' },
    { title: 'owner crashes on an uncaught exception', how: 'crash', exit: 1 },
    // Also proves the server does not keep its owner's process alive.
    { title: 'owner returns without calling stop()', how: 'return', exit: 0 },
  ] as const;
  for (const { title, how, exit } of deaths) {
    test.concurrent(title, async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', owner, how], {
        cwd: REPO_ROOT,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | string | null>((resolve) =>
        child.once('exit', (code, signal) => resolve(code ?? signal)),
      );
      const first = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) resolve(out.split('\n')[0]!);
        });
        // 'close', not 'exit': an owner that returns at once may exit before its output is read.
        child.once('close', (code) => reject(new Error(`owner exited (${code}): ${stderr}`)));
      });
      const { pid, dir, worker } = JSON.parse(first) as {
        pid: number;
        dir: string;
        worker?: number;
      };
      try {
        expect(running(pid)).toBe(true);
        if (exit === 'SIGKILL') child.kill('SIGKILL');
        else child.stdin.end();
        // Generous bounds: four owners start at once on a loaded machine; a leak fails them all the same.
        const deadline = new Promise((resolve) =>
          setTimeout(() => resolve('still running'), 15_000),
        );
        expect(await Promise.race([exited, deadline])).toBe(exit);
        expect(await until(() => !running(pid), 10_000)).toBe(true);
        expect(await until(() => !existsSync(dir), 10_000)).toBe(true);
        if (worker) expect(running(worker)).toBe(true);
      } finally {
        if (worker) process.kill(worker, 'SIGKILL');
      }
    });
  }

  test('a server that fails to start is reported with its output', async () => {
    const dir = scratchDir('redis-fake');
    const failing = path.join(dir, 'fails');
    writeFileSync(failing, '#!/bin/sh\necho "bad option --nope" >&2\nexit 3\n');
    chmodSync(failing, 0o755);
    const error = await startRedis({ serverPath: failing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisStartError);
    expect(String(error)).toMatch(/exited with status 3[\s\S]*bad option --nope/);
  });

  test('its output is reported even when it comes after the exit is known', async () => {
    // The exit line reaches the guardian's stdout before the server's last words on stderr.
    const dir = scratchDir('redis-fake');
    const slow = path.join(dir, 'slow-to-say');
    writeFileSync(slow, '#!/bin/sh\n(sleep 0.3; echo "bad option --late" >&2) &\nexit 4\n');
    chmodSync(slow, 0o755);
    const error = await startRedis({ serverPath: slow }).catch((e: unknown) => e);
    expect(String(error)).toMatch(/exited with status 4[\s\S]*bad option --late/);
  });

  test('a server that never gets ready is killed at the deadline', async () => {
    const dir = scratchDir('redis-fake');
    const silent = path.join(dir, 'silent');
    writeFileSync(silent, '#!/bin/sh\nexec sleep 60\n');
    chmodSync(silent, 0o755);
    const error = await startRedis({ serverPath: silent, readyTimeoutMs: 300 }).catch((e) => e);
    expect(String(error)).toMatch(/did not accept connections within 300 ms/);
    const pid = Number(/window-katas-redis-pid (\d+)/.exec(String(error))?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(await until(() => !running(pid), 3000)).toBe(true);
  });
});

describe.skipIf(!serverPath)("REDIS_URL: the user's server", () => {
  let users: RedisServer;
  beforeAll(async () => {
    users = await startRedis();
  });
  afterAll(() => users?.stop());

  test('the judge writes under its own prefix, deletes only that, and never flushes', async () => {
    const client = await plainClient(users.url);
    try {
      await client.set('user:precious', 'keep me');
      await client.set('window-katas:someone-else:key', 'another judge');
      const home = await openRedis({ env: { REDIS_URL: users.url, PATH: '' } });
      const target = await home.judgement(3);
      expect(target.owned).toBe(false);
      expect(target.keyPrefix).toMatch(/^window-katas:[0-9a-f]{12}:3:$/);
      // More keys than one SCAN page, of several types.
      await Promise.all(
        Array.from({ length: 1500 }, (_, i) => client.set(`${target.keyPrefix}k${i}`, String(i))),
      );
      await client.zAdd(`${target.keyPrefix}log`, { score: 1, value: 'a' });
      await target.close();
      await target.close(); // idempotent
      await home.close();
      await home.close(); // idempotent
      expect(await client.dbSize()).toBe(2);
      expect(await client.get('user:precious')).toBe('keep me');
      expect(await client.get('window-katas:someone-else:key')).toBe('another judge');
      const stats = await client.info('commandstats');
      expect(stats).not.toMatch(/cmdstat_flush(db|all)/);
    } finally {
      client.destroy();
    }
  });

  test('a prefix is matched literally, and an empty one is refused', async () => {
    const client = await plainClient(users.url);
    try {
      await client.set('a*b:1', 'x');
      await client.set('aXb:1', 'y');
      expect(await deleteKeysWithPrefix(client, 'a*b:')).toBe(1);
      expect(await client.get('aXb:1')).toBe('y');
      await expect(deleteKeysWithPrefix(client, '')).rejects.toThrow(/non-empty prefix/);
      expect(await client.get('aXb:1')).toBe('y');
    } finally {
      client.destroy();
    }
  });

  test('an unreachable REDIS_URL is a clear error that hides the password', async () => {
    const probe = await startRedis();
    await probe.stop(); // a port that was just free and now refuses connections
    const url = `redis://:hunter2@127.0.0.1:${probe.port}`;
    const error = await openRedis({ env: { REDIS_URL: url } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisStartError);
    expect(String(error)).toMatch(/did not answer/);
    expect(String(error)).not.toContain('hunter2');
  });

  test('without REDIS_URL each judgement gets a server of its own, with confined users', async () => {
    const home = await openRedis({ env: { ...process.env, REDIS_URL: undefined } });
    const [one, two] = [await home.judgement(1), await home.judgement(2)];
    expect(one).toMatchObject({ owned: true, keyPrefix: '1:' });
    expect(new URL(one.url).port).not.toBe(new URL(two.url).port);
    const learner = await plainClient(one.url);
    const checks = await plainClient(one.adminUrl);
    try {
      expect(await learner.ping()).toBe('PONG');
      expect(await learner.set('1:k', 'v')).toBe('OK');
      await expect(learner.set('2:k', 'v')).rejects.toThrow(/NOPERM/);
      await expect(learner.sendCommand(['FLUSHALL'])).rejects.toThrow(/NOPERM/);
      expect(await checks.get('1:k')).toBe('v');
      await expect(checks.set('1:k', 'w')).rejects.toThrow(/NOPERM/);
      await expect(checks.sendCommand(['FLUSHALL'])).rejects.toThrow(/NOPERM/);
      await expect(checks.sendCommand(['ACL', 'SETUSER', 'x'])).rejects.toThrow(/NOPERM/);
      // Nobody logs in without a user of the judge's.
      const anonymous = createClient({
        url: one.url.replace(/\/\/[^@]*@/, '//'),
        socket: { reconnectStrategy: false },
      });
      anonymous.on('error', () => {});
      await expect(anonymous.connect().then(() => anonymous.ping())).rejects.toThrow(/NOAUTH/);
      anonymous.destroy();
      // maxmemory: a runaway solution is refused writes (OOM) once past 64 MB, instead of the
      // machine's memory: of three 40 MB values, one is refused at the latest.
      const big = 'x'.repeat(40 * 1024 * 1024);
      const writes = ['1:a', '1:b', '1:c'].map((key) =>
        learner.set(key, big).then(String, (error: Error) => error.message),
      );
      expect((await Promise.all(writes)).some((said) => said.startsWith('OOM'))).toBe(true);
    } finally {
      learner.destroy();
      checks.destroy();
    }
    await Promise.all([one.close(), two.close()]);
    await home.close();
  });
});
