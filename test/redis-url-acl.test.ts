// REDIS_URL: the user's own server. Before any learner command runs there, the judge creates a user
// confined to its key prefix and to the kata commands (harness/redis/acl.ts), the facade's clients
// log in as it, and it is deleted afterwards. A server started here with startRedis() poses as the
// user's, holding keys and a user of its own that must come out as they went in. A command killed
// outright leaves its user behind: the next command of the same host removes it, and its keys.
import { spawnSync } from 'node:child_process';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  aclRules,
  currentOwner,
  databaseOf,
  hostTag,
  judgeUsername,
  ownerAlive,
  parseJudgeUsername,
  removeAbandonedUsers,
} from '../harness/redis/acl.ts';
import { findRedisServer } from '../harness/redis/availability.ts';
import { RedisStartError, startRedis, type RedisServer } from '../harness/redis/server.ts';
import { openRedis } from '../harness/redis/target.ts';
import { runScript, scratchDir } from './helpers.ts';
import {
  COUNTER_DIR,
  HOSTILE,
  repoWithRedisProblems,
  SLOW,
  solutionsDir,
  startCommand,
  TWIN_DIR,
  until,
} from './redis-problem.ts';

const serverPath = findRedisServer();
if (!serverPath) {
  // Loud on purpose: a machine without Redis must not look as if it had run these tests.
  console.warn(
    '\n*** SKIPPING the REDIS_URL confinement tests: redis-server is not installed ***\n',
  );
}

const newClient = (url: string) =>
  createClient({ url, RESP: 2, socket: { reconnectStrategy: false } });
type Client = ReturnType<typeof newClient>;

async function connect(url: string): Promise<Client> {
  const client = newClient(url);
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** Every key and value of the database, and the server's users with their rules. */
async function snapshot(admin: Client) {
  const keys = ((await admin.sendCommand(['KEYS', '*'])) as string[]).sort();
  const values = await Promise.all(keys.map((key) => admin.sendCommand(['DUMP', key])));
  const users = ((await admin.sendCommand(['ACL', 'LIST'])) as string[]).sort();
  return { keys, values, users };
}

test('the rules: prefix keys only, no dangerous or cross-database command; a plain prefix only', () => {
  const rules = aclRules('window-katas:0a1b:', 'secret', 0);
  expect(rules.slice(0, 4)).toEqual(['reset', 'on', '>secret', '~window-katas:0a1b:*']);
  const last = (name: string) => rules.lastIndexOf(name);
  // Later rules win: each denial comes after the categories that would allow it.
  for (const denied of [
    '-@dangerous',
    '-flushall',
    '-swapdb',
    '-select',
    '-script|flush',
    '-scan',
  ]) {
    expect(last(denied)).toBeGreaterThan(last('+@scripting'));
  }
  expect(aclRules('p:', 'x', 2)).toContain('+select');
  expect(() => aclRules('a*', 'x', 0)).toThrow(/plain/);
  expect(databaseOf('redis://h:1/2')).toBe(2);
  expect(databaseOf('redis://h:1')).toBe(0);
});

/** The pid of a process that has come and gone (and been reaped). */
function deadPid(): number {
  const done = spawnSync('true');
  return done.pid as number;
}

test("a judge's username says whose it is, and a dead owner is told from a live one", () => {
  const me = currentOwner();
  expect(me.pid).toBe(process.pid);
  expect(me.host).toBe(hostTag());
  expect(me.host).toMatch(/^[\w.-]{1,64}$/);
  if (process.platform === 'linux') expect(me.started).toBeGreaterThan(0);
  const name = judgeUsername('0a1b2c3d4e5f', me);
  expect(name).toBe(`window-katas-0a1b2c3d4e5f-${me.pid}-${me.started}@${me.host}`);
  expect(parseJudgeUsername(name)).toEqual({ id: '0a1b2c3d4e5f', owner: me });
  // Names the judge did not make, or made before names said whose they were: not the judge's.
  for (const other of ['default', 'app', 'window-katas-0a1b2c3d4e5f', 'window-katas-xyz-1-2@h']) {
    expect(parseJudgeUsername(other)).toBeUndefined();
  }
  expect(ownerAlive(me)).toBe(true);
  expect(ownerAlive({ ...me, pid: deadPid() })).toBe(false);
  // A pid of this host given to a later process: not the owner any more.
  if (me.started > 0) expect(ownerAlive({ ...me, started: me.started - 1 })).toBe(false);
  // Another host's processes cannot be looked at: they count as alive.
  expect(ownerAlive({ ...me, pid: deadPid(), host: 'elsewhere' })).toBe(true);
});

describe.skipIf(!serverPath)("REDIS_URL: a confined user on the user's server", () => {
  let users: RedisServer;
  let admin: Client;
  let repo: string;
  let before: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    users = await startRedis();
    admin = await connect(users.url);
    await admin.set('user:precious', 'keep me');
    await admin.hSet('user:hash', { a: '1' });
    await admin.select(1);
    await admin.set('db1:key', 'in db 1');
    await admin.select(0);
    await admin.sendCommand(['ACL', 'SETUSER', 'app', 'on', '>app-pass', '~app:*', '+get']);
    before = await snapshot(admin);
    repo = repoWithRedisProblems('redis-url-acl');
  });
  afterAll(async () => {
    admin?.destroy();
    await users?.stop();
  });

  /** The database, the users, and database 1 are as the user left them. */
  async function untouched(): Promise<void> {
    expect(await snapshot(admin)).toEqual(before);
    const other = await connect(`${users.url}/1`);
    expect(await other.get('db1:key')).toBe('in db 1');
    expect(await other.dbSize()).toBe(1);
    other.destroy();
  }

  test('FLUSHALL, SWAPDB and keys outside the prefix are refused by Redis, also from Lua', async () => {
    const home = await openRedis({ env: { REDIS_URL: users.url, PATH: '' } });
    const target = await home.judgement(1);
    const user = decodeURIComponent(new URL(target.url).username);
    const checker = decodeURIComponent(new URL(target.adminUrl).username);
    // Named after this process, with the id of its key prefix, the judgement and the role.
    for (const [name, role] of [
      [user, 'learner'],
      [checker, 'checks'],
    ] as const) {
      expect(name).toContain(`.1.${role}-`);
      expect(parseJudgeUsername(name)).toEqual({
        id: /^window-katas:([0-9a-f]{12}):1:$/.exec(target.keyPrefix)?.[1],
        owner: currentOwner(),
      });
    }
    expect((await admin.sendCommand(['ACL', 'USERS'])) as string[]).toEqual(
      expect.arrayContaining([user, checker]),
    );
    const client = await connect(target.url);
    try {
      const run = (args: string[]) =>
        client.sendCommand(args).then(
          (value) => `ran: ${JSON.stringify(value)}`,
          (error: Error) => error.message,
        );
      expect(await run(['EVAL', "return redis.call('FLUSHALL')", '0'])).toMatch(
        /can't run this command/,
      );
      expect(await run(['EVAL', "return redis.call('SWAPDB', '0', '1')", '0'])).toMatch(
        /can't run this command/,
      );
      expect(await run(['EVAL', "return redis.call('DEL', 'user:precious')", '0'])).toMatch(
        /can't access at least one of the keys/,
      );
      expect(await run(['FLUSHALL'])).toMatch(/^NOPERM/);
      expect(await run(['SET', 'user:precious', 'x'])).toMatch(/^NOPERM/);
      expect(await run(['SCAN', '0'])).toMatch(/^NOPERM/);
      expect(await run(['SCRIPT', 'FLUSH'])).toMatch(/^NOPERM/);
      // What a kata needs runs.
      const key = `${target.keyPrefix}k`;
      expect(await run(['EVAL', "return redis.call('INCR', KEYS[1])", '1', key])).toBe('ran: 1');
      expect(await run(['PEXPIRE', key, '5000'])).toBe('ran: 1');
      expect(await run(['TIME'])).toMatch(/^ran: \["\d+","\d+"\]$/);
      expect(await run(['SCRIPT', 'LOAD', 'return 1'])).toMatch(/^ran: "[0-9a-f]{40}"$/);
      // The judge's checks read, and stop scripts; they write nothing, flush nothing, manage no user.
      const checks = await connect(target.adminUrl);
      const check = (args: string[]) =>
        checks.sendCommand(args).then(
          (value) => `ran: ${JSON.stringify(value)}`,
          (error: Error) => error.message,
        );
      expect(await check(['GET', key])).toBe('ran: "1"');
      expect(await check(['SCRIPT', 'KILL'])).toMatch(/^NOTBUSY/);
      expect(await check(['SET', key, 'x'])).toMatch(/^NOPERM/);
      expect(await check(['FLUSHALL'])).toMatch(/^NOPERM/);
      expect(await check(['SHUTDOWN', 'NOSAVE'])).toMatch(/^NOPERM/);
      expect(await check(['ACL', 'DELUSER', user])).toMatch(/^NOPERM/);
      expect(await check(['CONFIG', 'SET', 'maxmemory', '1'])).toMatch(/^NOPERM/);
      checks.destroy();
    } finally {
      await target.close();
      await home.close();
      client.destroy();
    }
    // The users are gone, and with them any connection they had; the judge's keys too.
    const left = (await admin.sendCommand(['ACL', 'USERS'])) as string[];
    expect(left).not.toContain(user);
    expect(left).not.toContain(checker);
    await untouched();
  });

  test('a server without ACL is refused with a clear line, and nothing is left on it', async () => {
    const old = await startRedis({ args: ['--rename-command', 'ACL', 'acl-hidden-here'] });
    const oldAdmin = await connect(old.url);
    try {
      await oldAdmin.set('user:precious', 'keep me');
      const url = `redis://:hunter2@127.0.0.1:${old.port}`;
      await oldAdmin.sendCommand(['CONFIG', 'SET', 'requirepass', 'hunter2']);
      const home = await openRedis({ env: { REDIS_URL: url } });
      const error = await home.judgement(1).catch((e: unknown) => e);
      await home.close();
      expect(error).toBeInstanceOf(RedisStartError);
      expect(String(error)).toMatch(/has no ACL \(Redis 6 or later has it\)/);
      expect(String(error)).not.toContain('hunter2');
      expect(await oldAdmin.sendCommand(['KEYS', '*'])).toEqual(['user:precious']);
      // Only this test's own connection: the judge's admin connection was closed.
      const clients = String(await oldAdmin.sendCommand(['CLIENT', 'LIST']))
        .trim()
        .split('\n');
      expect(clients).toHaveLength(1);
      // kata says so in one line and judges nothing.
      const kata = runScript(repo, ['kata', COUNTER_DIR, '--once'], {
        env: { REDIS_URL: url, KATA_STATE_DIR: scratchDir('no-acl-state') },
      });
      expect(kata.code).toBe(2);
      expect(kata.stdout).toBe('');
      expect(kata.stderr.replace(/\n {2}/g, ' ')).toMatch(/has no ACL/);
      expect(kata.stderr).not.toContain('hunter2');
    } finally {
      oldAdmin.destroy();
      await old.stop();
    }
  });

  test('grade: the reference is Accepted there; the user’s keys and users are as they were', async () => {
    const { code, stdout } = runScript(
      repo,
      ['grade', COUNTER_DIR, TWIN_DIR, '--json', '--fresh'],
      {
        env: { REDIS_URL: users.url, KATA_STATE_DIR: scratchDir('url-grade-state') },
      },
    );
    const problems = (JSON.parse(stdout) as { problems: { dir: string; verdict: string }[] })
      .problems;
    expect(problems.map((p) => p.verdict)).toEqual(['accepted', 'accepted']);
    expect(code).toBe(0);
    return untouched();
  });

  test('grade: a solution reaching for the user’s data gets Redis’s refusals, and reaches nothing', async () => {
    const hostile = solutionsDir('url-hostile', HOSTILE);
    const { stdout } = runScript(
      repo,
      ['grade', '--dir', hostile, COUNTER_DIR, '--json', '--fresh'],
      {
        env: { REDIS_URL: users.url },
      },
    );
    const [problem] = (
      JSON.parse(stdout) as { problems: { verdict: string; cases: { message: string | null }[] }[] }
    ).problems;
    expect(problem?.verdict).toBe('runtime-error');
    const message = problem?.cases[0]?.message ?? '';
    const said = JSON.parse(/SAID (\{.*?\})(?:\n|$)/.exec(message)?.[1] ?? '{}') as Record<
      string,
      string
    >;
    expect(said.flushall).toMatch(/can't run this command/);
    expect(said.flushdb).toMatch(/can't run this command/);
    expect(said.swapdb).toMatch(/can't run this command/);
    // Redis refuses SCRIPT in a script whatever the user: the ACL is a second wall there.
    expect(said.scriptFlush).toMatch(/can't run this command|not allowed from script/);
    expect(said.aclFromLua).toMatch(/can't run this command|not allowed from script/);
    expect(said.luaSet).toMatch(/can't access at least one of the keys/);
    expect(said.luaDel).toMatch(/can't access at least one of the keys/);
    // Sent as commands, the judge's own refusals come first (facade-host.ts), else Redis's.
    expect(said.set).toMatch(/NOPERM/);
    expect(said.scan).toMatch(/NOPERM/);
    expect(said.own).toBe('ran: 1');
    await untouched();
  });

  test('users left by dead processes of this host go, with their keys; all others stay', async () => {
    const me = currentOwner();
    const users_ = {
      dead: judgeUsername('00000000dead', { ...me, pid: deadPid() }),
      reused: judgeUsername('0000000bcdef', { ...me, started: me.started + 1 }),
      live: judgeUsername('000000000111', me),
      elsewhere: judgeUsername('0000000e15e0', { ...me, pid: deadPid(), host: 'elsewhere' }),
    };
    const ids = { dead: '00000000dead', reused: '0000000bcdef', live: '000000000111' };
    for (const name of Object.values(users_)) {
      await admin.sendCommand(['ACL', 'SETUSER', name, 'on', '>pw', '~window-katas:*', '+get']);
    }
    for (const id of [...Object.values(ids), '0000000e15e0']) {
      await admin.set(`window-katas:${id}:k1`, 'x');
      await admin.set(`window-katas:${id}:k2`, 'y');
    }
    try {
      const removed = await removeAbandonedUsers(admin);
      const reusable = me.started > 0 ? [users_.reused] : [];
      expect(removed.sort()).toEqual([users_.dead, ...reusable].sort());
      const left = (await admin.sendCommand(['ACL', 'USERS'])) as string[];
      expect(left).toEqual(expect.arrayContaining([users_.live, users_.elsewhere, 'app']));
      expect(left).not.toContain(users_.dead);
      const keys = ((await admin.sendCommand(['KEYS', 'window-katas:*'])) as string[]).sort();
      expect(keys.some((k) => k.startsWith(`window-katas:${ids.dead}:`))).toBe(false);
      expect(keys.filter((k) => k.startsWith(`window-katas:${ids.live}:`))).toHaveLength(2);
      expect(keys.filter((k) => k.startsWith('window-katas:0000000e15e0:'))).toHaveLength(2);
      // A server that will not list its users: nothing removed, nothing thrown.
      const refusing = { sendCommand: () => Promise.reject(new Error('NOPERM')) };
      expect(await removeAbandonedUsers(refusing)).toEqual([]);
    } finally {
      for (const name of Object.values(users_)) await admin.sendCommand(['ACL', 'DELUSER', name]);
      const keys = (await admin.sendCommand(['KEYS', 'window-katas:*'])) as string[];
      if (keys.length > 0) await admin.sendCommand(['DEL', ...keys]);
    }
    await untouched();
  });

  test('kill -9 of grade leaves its user; the next command removes it, and its keys', async () => {
    const slow = solutionsDir('url-killed', SLOW);
    const grade = startCommand(repo, ['grade', '--dir', slow, COUNTER_DIR, '--fresh'], {
      REDIS_URL: users.url,
    });
    const judgeUsers = async () =>
      ((await admin.sendCommand(['ACL', 'USERS'])) as string[]).filter((name) =>
        name.startsWith('window-katas-'),
      );
    try {
      expect(await until(async () => (await judgeUsers()).length > 0, 20_000)).toBe(true);
      const first = (await judgeUsers())[0] as string;
      // Named after the grade's own process.
      expect(parseJudgeUsername(first)?.owner.pid).toBe(grade.pid);
      await new Promise((resolve) => setTimeout(resolve, 700));
      // Keys under its prefix, as a grade cut short may leave.
      const id = parseJudgeUsername(first)?.id as string;
      await admin.set(`window-katas:${id}:1:left`, 'behind');
      grade.kill('SIGKILL');
      expect((await grade.exited).signal).toBe('SIGKILL');
    } finally {
      grade.kill('SIGKILL');
    }
    // Nobody could clean up: its users are still there (read once it is dead: on a busy machine
    // the second of them may be made after the first is seen).
    const left = await judgeUsers();
    expect(left.length).toBeGreaterThan(0);
    for (const name of left) expect(parseJudgeUsername(name)?.owner.pid).toBe(grade.pid);
    // The next command on this host removes it, and its keys, before making its own.
    const next = await openRedis({ env: { REDIS_URL: users.url } });
    try {
      expect(await judgeUsers()).toEqual([]);
    } finally {
      await next.close();
    }
    await untouched();
  });

  test('Ctrl-C of grade in the middle of judging: the judge’s user and keys are removed', async () => {
    const slow = solutionsDir('url-slow', SLOW);
    const grade = startCommand(repo, ['grade', '--dir', slow, COUNTER_DIR, '--fresh'], {
      REDIS_URL: users.url,
    });
    try {
      const judgeUser = async () =>
        ((await admin.sendCommand(['ACL', 'USERS'])) as string[]).some((name) =>
          name.startsWith('window-katas-'),
        );
      expect(await until(judgeUser, 20_000)).toBe(true);
      // The first case is waiting on Redis (BLPOP) by now.
      await new Promise((resolve) => setTimeout(resolve, 700));
      grade.kill('SIGINT');
      expect(await grade.exited).toEqual({ code: 130, signal: null });
      expect(await judgeUser()).toBe(false);
      await untouched();
    } finally {
      grade.kill('SIGKILL');
    }
  });
});
