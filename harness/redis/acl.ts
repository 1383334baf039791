// On a user's own server (REDIS_URL), learner code reaches Redis through the judge's connections, and
// a Lua script runs whatever Redis lets that connection run: `redis.call('FLUSHALL')` inside EVAL
// passes any check the judge makes on the command itself (facade-host.ts refuses only what is sent
// as a command). Redis's ACL rules, though, apply inside scripts too. So before any learner command
// runs there, the judge creates a user of its own through the admin connection, with a random
// password, allowed only keys under the judge's prefix and only the commands the katas need, and
// the facade's clients log in as that user. The user is deleted when the judge is done.
// A server without ACL (Redis before 6) is refused: without it nothing confines a script.
import { randomBytes } from 'node:crypto';
import { redactUrl } from './availability.ts';
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
export function aclRules(keyPrefix: string, password: string, database: number): string[] {
  if (!/^[\w:.-]+$/.test(keyPrefix)) {
    // The prefix becomes a glob pattern: it must hold no glob or space character.
    throw new Error(`a key prefix for an ACL pattern must be plain: ${JSON.stringify(keyPrefix)}`);
  }
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

/** The database a redis:// URL names (`/2`), 0 when it names none. */
export function databaseOf(url: string): number {
  try {
    const name = new URL(url).pathname.replace(/^\//, '');
    return name === '' ? 0 : Number(name);
  } catch {
    return 0;
  }
}

export interface RestrictedUser {
  readonly username: string;
  /** The user's URL: the server's, logged in as the restricted user. Holds its password. */
  readonly url: string;
  /** Deletes the user, which also disconnects every client logged in as it. Idempotent. */
  remove(): Promise<void>;
}

/** Why a server that refuses ACL SETUSER cannot be used, in one line for the learner. */
export function aclRefusal(url: string, reason: string): string {
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
 * Creates a user allowed only keys under `keyPrefix` and the kata commands (aclRules), with a
 * random password, through `admin` (connected to `url`); throws a RedisStartError saying what to
 * do when the server has no ACL or the admin may not use it.
 */
export async function createRestrictedUser(
  admin: AclSender,
  url: string,
  keyPrefix: string,
): Promise<RestrictedUser> {
  const username = `window-katas-${randomBytes(6).toString('hex')}`;
  const password = randomBytes(24).toString('hex');
  try {
    await admin.sendCommand([
      'ACL',
      'SETUSER',
      username,
      ...aclRules(keyPrefix, password, databaseOf(url)),
    ]);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RedisStartError(aclRefusal(url, reason));
  }
  const withUser = new URL(url);
  withUser.username = encodeURIComponent(username);
  withUser.password = encodeURIComponent(password);
  let removing: Promise<void> | undefined;
  const remove = async () => {
    // DELUSER disconnects the user's clients too: no learner connection outlives it.
    await admin.sendCommand(['ACL', 'DELUSER', username]);
  };
  return { username, url: withUser.toString(), remove: () => (removing ??= remove()) };
}
