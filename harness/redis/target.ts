// The Redis a grade runs against: the user's own server when REDIS_URL says so (confined to a fresh key
// prefix, cleaned up afterwards), else a redis-server the judge starts and owns entirely.
import { createRestrictedUser, judgeUsername, removeAbandonedUsers } from './acl.ts';
import { redactUrl, redisAvailability } from './availability.ts';
import { deleteKeysWithPrefix, keyPrefixOf, newJudgeId } from './prefix.ts';
import { RedisStartError, startRedis, type StartRedisOptions } from './server.ts';

export interface RedisTarget {
  /**
   * Where learner code's connections go: the judge's server, or on the user's, the user's server
   * logged in as a user confined to `keyPrefix` (acl.ts). Holds that user's password: never shown.
   */
  readonly url: string;
  /**
   * Where the judge's own checks connect (a case's clock reads, key inspection, MONITOR): the
   * server as its owner on the judge's server, the user's REDIS_URL on theirs. Never a learner's.
   */
  readonly adminUrl: string;
  /** Put in front of every key the judge uses: '' on the judge's own server. */
  readonly keyPrefix: string;
  /** True when the judge started the server (and may flush it, reconfigure it, stop it). */
  readonly owned: boolean;
  /** Stops the judge's server, or deletes the prefix's keys on the user's. Idempotent. */
  close(): Promise<void>;
}

/** An admin connection that fails fast instead of retrying forever: it is the judge's, not a learner's. */
export async function connectAdmin(url: string, timeoutMs = 2000) {
  // Loaded on demand: importing the redis package costs several hundred ms of CPU (hundreds of
  // modules), which a grade without a Redis problem must not pay.
  const { createClient } = await import('redis');
  const client = createClient({
    url,
    socket: { connectTimeout: timeoutMs, reconnectStrategy: false },
  });
  // node-redis throws an unhandled 'error' event otherwise; failures surface through the promises.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.destroy();
    const reason = error instanceof Error ? error.message : String(error);
    throw new RedisStartError(`Redis at ${redactUrl(url)} did not answer: ${reason}`);
  }
  return client;
}

export type AdminClient = Awaited<ReturnType<typeof connectAdmin>>;

export async function openRedis(options: StartRedisOptions = {}): Promise<RedisTarget> {
  const availability = redisAvailability(options.env ?? process.env);
  if (!availability.available) throw new RedisStartError(availability.message);
  if (availability.mode === 'own') {
    const server = await startRedis({ ...options, serverPath: availability.serverPath });
    return {
      url: server.url,
      adminUrl: server.url,
      keyPrefix: '',
      owned: true,
      close: () => server.stop(),
    };
  }
  const { url } = availability;
  const admin = await connectAdmin(url);
  const id = newJudgeId();
  const keyPrefix = keyPrefixOf(id);
  // Before any learner command: without the restricted user, a script could flush the server. And
  // before that, what commands of this host killed outright left behind (see acl.ts).
  const restricted = await (async () => {
    await removeAbandonedUsers(admin);
    return createRestrictedUser(admin, url, keyPrefix, judgeUsername(id));
  })().catch((error: unknown) => {
    admin.destroy();
    throw error;
  });
  let closing: Promise<void> | undefined;
  const close = async () => {
    try {
      // The user first: deleting it disconnects its clients, so nothing writes while keys go.
      await restricted.remove();
      await deleteKeysWithPrefix(admin, keyPrefix);
    } finally {
      admin.destroy();
    }
  };
  return {
    url: restricted.url,
    adminUrl: url,
    keyPrefix,
    owned: false,
    close: () => (closing ??= close()),
  };
}
