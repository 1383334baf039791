// Whether a Redis kata can be judged here, decided without starting anything: a user's REDIS_URL wins
// (they asked for their server), else a redis-server executable the judge can start itself.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

export type RedisAvailability =
  | { available: true; mode: 'url'; url: string }
  | { available: true; mode: 'own'; serverPath: string }
  | {
      available: false;
      /** One line for a learner who opened a Redis kata: what is missing and how to get it. */
      message: string;
      /** What is missing, as a sentence of its own: `redis-server is not on PATH`. */
      reason: string;
      /** How to get it: install redis-server, or point REDIS_URL at a server. */
      howTo: string;
    };

const HOW_TO_GET_REDIS =
  'install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) ' +
  'or run `docker run -p 6379:6379 redis:7` and set REDIS_URL=redis://127.0.0.1:6379';

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** REDIS_SERVER when set (and only it: a wrong explicit path must not fall back silently), else PATH. */
export function findRedisServer(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.REDIS_SERVER) {
    return executable(env.REDIS_SERVER) ? path.resolve(env.REDIS_SERVER) : undefined;
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, 'redis-server');
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

/** Why REDIS_URL cannot be a Redis URL, or undefined when it can. */
export function badRedisUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'it is not a URL';
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    return `it is a ${parsed.protocol.replace(/:$/, '')}: URL, not redis:// or rediss://`;
  }
  if (!parsed.hostname) return 'it names no host';
  if (!/^\/?\d*$/.test(parsed.pathname)) return 'its path must be a database number (/0)';
  return undefined;
}

export function redisAvailability(env: NodeJS.ProcessEnv = process.env): RedisAvailability {
  if (env.REDIS_URL) {
    const bad = badRedisUrl(env.REDIS_URL);
    if (bad === undefined) return { available: true, mode: 'url', url: env.REDIS_URL };
    // Never echoed: a malformed URL may still hold a password.
    const reason = `REDIS_URL is set but ${bad} (e.g. redis://127.0.0.1:6379)`;
    const howTo = 'fix REDIS_URL, or unset it to let the judge start its own redis-server';
    return {
      available: false,
      message: `This kata needs Redis: ${reason}; ${howTo}.`,
      reason,
      howTo,
    };
  }
  const serverPath = findRedisServer(env);
  if (serverPath) return { available: true, mode: 'own', serverPath };
  const explicit = env.REDIS_SERVER
    ? `REDIS_SERVER=${env.REDIS_SERVER} is not an executable file`
    : undefined;
  return {
    available: false,
    message: `This kata needs redis-server, but ${explicit ?? 'it is not on PATH'}: ${HOW_TO_GET_REDIS}.`,
    reason: explicit ?? 'redis-server is not on PATH',
    howTo: HOW_TO_GET_REDIS,
  };
}

/** A URL fit for messages: a password in REDIS_URL must not end up in a report or a log. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable REDIS_URL)';
  }
}
