// On a user's own server (REDIS_URL), learner code reaches Redis through the judge's connections, and
// a Lua script runs whatever Redis lets that connection run: `redis.call('FLUSHALL')` inside EVAL
// passes any check the judge makes on the command itself (facade-host.ts refuses only what is sent
// as a command). Redis's ACL rules, though, apply inside scripts too. So before any learner command
// runs there, the judge creates a user of its own through the admin connection, with a random
// password, allowed only keys under the judge's prefix and only the commands the katas need, and
// the facade's clients log in as that user. The user is deleted when the judge is done.
// A server without ACL (Redis before 6) is refused: without it nothing confines a script.
// A command killed outright (kill -9, a crash, a machine switched off) cannot delete its user, so
// the user's name says whose it is (the host, the pid, when that process started), and the next
// command on the same host deletes the users, and their keys, of processes that are gone
// (removeAbandonedUsers).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { redactUrl } from './availability.ts';
import { deleteKeysWithPrefix, keyPrefixOf } from './prefix.ts';
import { RedisStartError } from './server.ts';

/** What creating and deleting the user needs of a client; any node-redis client fits. */
export interface AclSender {
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * The command categories a kata's solution may use (strings, hashes, sorted sets, lists, sets,
 * expiry, scripts, TIME, PING), less everything Redis itself calls dangerous (FLUSHALL, FLUSHDB,
 * SWAPDB, CONFIG, KEYS, DEBUG, SHUTDOWN, MONITOR, ACL, CLIENT KILL…), less what reaches beyond a
 * solution's own keys in some other way: another database (SELECT, MOVE, COPY … DB, SWAPDB), the
 * script cache every client shares (SCRIPT FLUSH/KILL), functions, pub/sub, the names of other keys
 * (SCAN, RANDOMKEY). Keys: the prefix only.
 */
/** The prefix becomes a glob pattern (`~prefix*`): it must hold no glob or space character. */
function checkPlainPrefix(keyPrefix: string): void {
  if (!/^[\w:.-]+$/.test(keyPrefix)) {
    throw new Error(`a key prefix for an ACL pattern must be plain: ${JSON.stringify(keyPrefix)}`);
  }
}

export function aclRules(keyPrefix: string, password: string, database: number): string[] {
  checkPlainPrefix(keyPrefix);
  return [
    'reset',
    'on',
    `>${password}`,
    `~${keyPrefix}*`,
    'resetchannels',
    '-@all',
    '+@read',
    '+@write',
    '+@keyspace',
    '+@string',
    '+@hash',
    '+@list',
    '+@set',
    '+@sortedset',
    '+@scripting',
    '+@connection',
    // MULTI/EXEC on its own connection: the host refuses them today (facade-host.ts), a transaction
    // fixture may come; the key pattern holds inside a transaction as anywhere.
    '+@transaction',
    '+time',
    '-@dangerous',
    '-@admin',
    '-@pubsub',
    '-flushall',
    '-flushdb',
    '-swapdb',
    '-move',
    '-copy',
    '-script|flush',
    '-script|kill',
    '-function',
    '-fcall',
    '-fcall_ro',
    // Key patterns do not filter what these return: they would list the user's other keys.
    '-scan',
    '-randomkey',
    // The URL's database is selected on connecting (node-redis sends SELECT): allowed only then.
    database === 0 ? '-select' : '+select',
  ];
}

/**
 * The rules of the judge's checks user (admin.ts, in the child that runs learner code): it reads the
 * judgement's keys, Redis's clock and what scripts did, and stops a learner's script that runs past
 * its deadline, and writes a state other servers left (a log, ZADD and PEXPIREAT: admin.ts's seed);
 * it cannot write outside the prefix, flush, reconfigure, or manage users, so that the child holds
 * no credential worth stealing. On the judge's own server it may also SHUTDOWN: the
 * only way to stop a script that wrote (the guardian starts the server again, see guardian.ts).
 */
export function checksRules(
  keyPrefix: string,
  password: string,
  database: number,
  ownServer: boolean,
): string[] {
  checkPlainPrefix(keyPrefix);
  return [
    'reset',
    'on',
    `>${password}`,
    `~${keyPrefix}*`,
    'resetchannels',
    '-@all',
    '+@read',
    '+@connection',
    '-@dangerous',
    '+time',
    '+zadd',
    '+pexpireat',
    '+scan',
    '+unlink',
    '+echo',
    '+command|getkeys',
    '+monitor',
    '+script|kill',
    ...(ownServer ? ['+shutdown'] : []),
    database === 0 ? '-select' : '+select',
  ];
}

/** The database a redis:// URL names (`/2`), 0 when it names none. */
export function databaseOf(url: string): number {
  try {
    const name = new URL(url).pathname.replace(/^\//, '');
    return name === '' ? 0 : Number(name);
  } catch {
    return 0;
  }
}

/** The process a judge's user belongs to. */
export interface Owner {
  /** The host's name, reduced to letters, digits, dots and dashes. */
  host: string;
  pid: number;
  /**
   * When the process started, in clock ticks since boot (Linux's /proc): a pid used again by a
   * later process does not pass for the owner. 0 where that cannot be read (then the pid alone).
   */
  started: number;
}

const USER_PREFIX = 'window-katas-';
/** `window-katas-<id>-<pid>-<started>@<host>`: the id is the one in the user's key prefix. */
const USERNAME =
  /^window-katas-([0-9a-f]{12})(?:\.\d{1,9}\.(?:learner|checks))?-(\d{1,10})-(\d{1,20})@([\w.-]{1,64})$/;

/** When process `pid` started (field 22 of /proc/<pid>/stat), or undefined where unreadable. */
function startTicks(pid: number): { ticks: number; zombie: boolean } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command's name, which may hold spaces and parentheses: state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ticks: Number(fields[19]), zombie: fields[0] === 'Z' };
  } catch {
    return undefined;
  }
}

/** This host's name as it goes into a username. */
export function hostTag(): string {
  return (hostname().replace(/[^\w.-]/g, '_') || 'host').slice(0, 64);
}

/** The process running this code. */
export function currentOwner(): Owner {
  return { host: hostTag(), pid: process.pid, started: startTicks(process.pid)?.ticks ?? 0 };
}

/**
 * The name of the judge's user for the key prefix of `id`, owned by `owner`; with `role`, one of the
 * two users of judgement `n` (`window-katas-<id>.<n>.learner-…`).
 */
export function judgeUsername(
  id: string,
  owner: Owner = currentOwner(),
  role?: { judgement: number; role: 'learner' | 'checks' },
): string {
  const which = role === undefined ? '' : `.${role.judgement}.${role.role}`;
  return `${USER_PREFIX}${id}${which}-${owner.pid}-${owner.started}@${owner.host}`;
}

/** The id and owner a judge's username holds; undefined for any other name. */
export function parseJudgeUsername(name: string): { id: string; owner: Owner } | undefined {
  const match = USERNAME.exec(name);
  if (!match) return undefined;
  const [, id, pid, started, host] = match as unknown as [string, string, string, string, string];
  return { id, owner: { host, pid: Number(pid), started: Number(started) } };
}

/**
 * Whether the owner process still runs. Only a process of this host can be looked at: of any other,
 * the answer is true (it is none of this command's business). A zombie has ended.
 */
export function ownerAlive(owner: Owner, host = hostTag()): boolean {
  if (owner.host !== host) return true;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: a process of someone else's, so alive; ESRCH: none.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const now = startTicks(owner.pid);
  if (now === undefined) return true;
  if (now.zombie) return false;
  // Started at another moment: the pid was given to a later process.
  return owner.started === 0 || now.ticks === owner.started;
}

/**
 * Deletes the users (and their keys) that commands of this host made and could not delete, their
 * processes having died (see ownerAlive), and returns their names. Users of other hosts, of
 * processes still running, and any user not named by the judge are left alone. Best effort: a
 * server that will not list its users (no ACL, or an admin not allowed to) leaves them in place.
 */
export async function removeAbandonedUsers(admin: AclSender, host = hostTag()): Promise<string[]> {
  let names: unknown;
  try {
    names = await admin.sendCommand(['ACL', 'USERS']);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of Array.isArray(names) ? names.map(String) : []) {
    const parsed = parseJudgeUsername(name);
    if (!parsed || ownerAlive(parsed.owner, host)) continue;
    try {
      // The user first, which also disconnects any client still logged in as it; then its keys.
      await admin.sendCommand(['ACL', 'DELUSER', name]);
      await deleteKeysWithPrefix(admin, keyPrefixOf(parsed.id));
      removed.push(name);
    } catch {
      // Not this command's to fail on: the next one tries again.
    }
  }
  return removed;
}

export interface RestrictedUser {
  readonly username: string;
  /** The user's URL: the server's, logged in as the restricted user. Holds its password. */
  readonly url: string;
  /** Deletes the user, which also disconnects every client logged in as it. Idempotent. */
  remove(): Promise<void>;
}

/** Why a server that refuses ACL SETUSER cannot be used, in one line for the learner. */
function aclRefusal(url: string, reason: string): string {
  const noAcl = /unknown command/i.test(reason);
  const why = noAcl
    ? 'that server has no ACL (Redis 6 or later has it)'
    : `that server refused to create a restricted user (${reason})`;
  return (
    `REDIS_URL=${redactUrl(url)}: the judge runs learner code on your server only as a user ` +
    `confined to its own keys, and ${why}. Point REDIS_URL at Redis 6 or later, as a user ` +
    `allowed to run ACL SETUSER and ACL DELUSER, or unset REDIS_URL to let the judge start ` +
    `its own redis-server.`
  );
}

/**
 * Creates a user named `username` (judgeUsername), allowed only keys under `keyPrefix` and the kata
 * commands (aclRules), with a random password, through `admin` (connected to `url`); throws a
 * RedisStartError saying what to do when the server has no ACL or the admin may not use it.
 */
export async function createRestrictedUser(
  admin: AclSender,
  url: string,
  keyPrefix: string,
  username: string,
  rules: typeof aclRules = aclRules,
): Promise<RestrictedUser> {
  const password = newPassword();
  try {
    await admin.sendCommand([
      'ACL',
      'SETUSER',
      username,
      ...rules(keyPrefix, password, databaseOf(url)),
    ]);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RedisStartError(aclRefusal(url, reason));
  }
  let removing: Promise<void> | undefined;
  const remove = async () => {
    // DELUSER disconnects the user's clients too: no learner connection outlives it.
    await admin.sendCommand(['ACL', 'DELUSER', username]);
  };
  return { username, url: urlAs(url, username, password), remove: () => (removing ??= remove()) };
}

/** A random password for a user of the judge's. */
export function newPassword(): string {
  return randomBytes(24).toString('hex');
}

/** `url`, logged in as `username`. */
export function urlAs(url: string, username: string, password: string): string {
  const withUser = new URL(url);
  withUser.username = encodeURIComponent(username);
  withUser.password = encodeURIComponent(password);
  return withUser.toString();
}
