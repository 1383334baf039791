// The Redis a judgement runs against. On the judge's own, every judgement gets a redis-server of its
// own (started for it, stopped after it): one problem's scripts, memory or loops cannot reach another
// problem's judgement, nor a later judgement of the same problem (kata's watch mode). On the user's
// (REDIS_URL) the command shares their server, and each judgement gets a key prefix of its own.
// Either way, learner code logs in as a user confined to the judgement's prefix and the commands the
// katas need (acl.ts), and the judge's checks, which run in the same child process, as a second user
// that reads and stops scripts but cannot flush, reconfigure or manage users: the child holds no
// credential worth stealing.
import {
  aclRules,
  checksRules,
  createRestrictedUser,
  judgeUsername,
  newPassword,
  removeAbandonedUsers,
  urlAs,
  type RestrictedUser,
} from './acl.ts';
import { redactUrl, redisAvailability } from './availability.ts';
import { deleteKeysWithPrefix, keyPrefixOf, newJudgeId } from './prefix.ts';
import { RedisStartError, startRedis, type StartRedisOptions } from './server.ts';

/** One judgement's Redis. */
export interface RedisTarget {
  /**
   * Where learner code's connections go, logged in as the judgement's confined user (acl.ts).
   * Holds that user's password: never shown.
   */
  readonly url: string;
  /**
   * Where the judge's own checks connect (a case's clock reads, key inspection, MONITOR, stopping a
   * script): the checks user (checksRules). Never a learner's, never the server's owner.
   */
  readonly adminUrl: string;
  /** Put in front of every key the judgement uses. */
  readonly keyPrefix: string;
  /** True when the judge started the server (and may stop it, restart it). */
  readonly owned: boolean;
  /** Stops the judgement's server, or deletes its users and keys on the user's. Idempotent. */
  close(): Promise<void>;
}

/** A command's Redis: where its judgements get theirs. */
export interface RedisHome {
  /** The Redis of judgement `n` of the command (1, 2, …). */
  judgement(n: number): Promise<RedisTarget>;
  /**
   * On a user's server, the one line to say before any learner script runs there: what it can do
   * to their server. Undefined on the judge's own.
   */
  readonly warning?: string;
  /** Closes what the command holds (an admin connection on the user's server). Idempotent. */
  close(): Promise<void>;
}

/** A limit no honest solution nears (its keys take kilobytes); what a runaway one may not pass. */
const JUDGE_MAXMEMORY = '64mb';
/** How long a script runs before Redis answers BUSY and lets the judge stop it (SCRIPT KILL). */
const JUDGE_SCRIPT_MS = 100;

const LEARNER = 'learner';
const CHECKS = 'judge-checks';

/**
 * The configuration of a judgement's own server: nobody logs in as the default user; learner code's
 * user and the checks user are made by the server itself (no connection of the parent's is needed,
 * so a grade pays no client start); a memory limit and a short script limit (see CONTRIBUTING.md).
 */
function ownServerConfig(keyPrefix: string, learner: string, checks: string): string[] {
  return [
    'user default off',
    `user ${LEARNER} ${aclRules(keyPrefix, learner, 0).join(' ')}`,
    `user ${CHECKS} ${checksRules(keyPrefix, checks, 0, true).join(' ')}`,
    `maxmemory ${JUDGE_MAXMEMORY}`,
    'maxmemory-policy noeviction',
    // lua-time-limit: busy-reply-threshold's name in Redis 6 too.
    `lua-time-limit ${JUDGE_SCRIPT_MS}`,
  ];
}

/** A server of the judge's for one judgement. */
async function ownJudgement(n: number, options: StartRedisOptions): Promise<RedisTarget> {
  const keyPrefix = `${n}:`;
  const learner = newPassword();
  const checks = newPassword();
  const server = await startRedis({
    ...options,
    config: [...ownServerConfig(keyPrefix, learner, checks), ...(options.config ?? [])],
  });
  return {
    url: urlAs(server.url, LEARNER, learner),
    adminUrl: urlAs(server.url, CHECKS, checks),
    keyPrefix,
    owned: true,
    close: () => server.stop(),
  };
}

/**
 * An admin connection that fails fast instead of retrying forever: it is the judge's, not a
 * learner's. A server that accepts the connection and never answers is given up after `timeoutMs`
 * in all; a URL that is not one is refused before anything connects.
 */
async function connectAdmin(url: string, timeoutMs = 2000) {
  // Loaded on demand: importing the redis package costs several hundred ms of CPU (hundreds of
  // modules), which a grade without a Redis problem must not pay.
  const { createClient } = await import('redis');
  const failed = (why: unknown): RedisStartError => {
    const reason = why instanceof Error ? why.message : String(why);
    return new RedisStartError(`Redis at ${redactUrl(url)} did not answer: ${reason}`);
  };
  let client: ReturnType<typeof createClient>;
  try {
    client = createClient({
      url,
      socket: { connectTimeout: timeoutMs, reconnectStrategy: false },
    });
  } catch (error) {
    throw failed(error);
  }
  // node-redis throws an unhandled 'error' event otherwise; failures surface through the promises.
  client.on('error', () => {});
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([
      (async () => {
        await client.connect();
        await client.ping();
      })(),
      silent,
    ]);
  } catch (error) {
    client.destroy();
    throw failed(error);
  } finally {
    clearTimeout(timer);
  }
  return client;
}

/** What a learner's script can do to a user's server, said once before any runs there. */
function userServerWarning(url: string): string {
  return (
    `Redis katas run your scripts on ${redactUrl(url)} as a user confined to keys under ` +
    `window-katas:…; a script that writes and then loops can leave that server answering BUSY ` +
    `until it is restarted (a throwaway server is safest: see README).`
  );
}

/** The user's server: the command's admin connection, and a confined pair of users per judgement. */
async function userHome(url: string): Promise<RedisHome> {
  const admin = await connectAdmin(url);
  const id = newJudgeId();
  const commandPrefix = keyPrefixOf(id);
  // Before any learner command: what commands of this host killed outright left behind (acl.ts).
  await removeAbandonedUsers(admin).catch(() => []);
  const open = new Set<() => Promise<void>>();
  const judgement = async (n: number): Promise<RedisTarget> => {
    const keyPrefix = `${commandPrefix}${n}:`;
    const made: RestrictedUser[] = [];
    // The users being made: a close that comes meanwhile (Ctrl-C) waits for them, so that a user
    // made after it began is not left behind.
    let making: Promise<void> = Promise.resolve();
    const close = async () => {
      await making.catch(() => undefined);
      // The users first: deleting them disconnects their clients, so nothing writes while keys go.
      for (const user of made) await user.remove().catch(() => undefined);
      await deleteKeysWithPrefix(admin, keyPrefix).catch(() => 0);
    };
    let closing: Promise<void> | undefined;
    const closeOnce = () => {
      open.delete(closeOnce);
      return (closing ??= close());
    };
    open.add(closeOnce);
    making = (async () => {
      for (const role of [LEARNER, 'checks'] as const) {
        const name = judgeUsername(id, undefined, { judgement: n, role });
        const rules = role === LEARNER ? aclRules : (p: string, pw: string, db: number) =>
          checksRules(p, pw, db, false); // prettier-ignore
        made.push(await createRestrictedUser(admin, url, keyPrefix, name, rules));
      }
    })();
    try {
      await making;
    } catch (error) {
      await closeOnce();
      throw error;
    }
    return {
      url: made[0]!.url,
      adminUrl: made[1]!.url,
      keyPrefix,
      owned: false,
      close: closeOnce,
    };
  };
  let closing: Promise<void> | undefined;
  return {
    judgement,
    warning: userServerWarning(url),
    close: () =>
      (closing ??= (async () => {
        try {
          for (const close of [...open]) await close();
        } finally {
          admin.destroy();
        }
      })()),
  };
}

/** The command's Redis: the user's REDIS_URL, else servers of the judge's own, one per judgement. */
export async function openRedis(options: StartRedisOptions = {}): Promise<RedisHome> {
  const availability = redisAvailability(options.env ?? process.env);
  if (!availability.available) throw new RedisStartError(availability.message);
  if (availability.mode === 'url') return userHome(availability.url);
  const serverOptions = { ...options, serverPath: availability.serverPath };
  return { judgement: (n) => ownJudgement(n, serverOptions), close: async () => {} };
}
