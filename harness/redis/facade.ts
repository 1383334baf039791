// The Redis client a learner's code receives: a facade built inside the learner's realm, never a
// client of the `redis` package. A real client is an object of the judge's realm: its methods'
// `constructor` is the judge's Function, which compiles code with the judge's powers. The facade
// holds nothing of the judge: its methods turn a call into a list of strings and hand it to `post`,
// the realm's one way out (see takeOutbound in harness/sandbox/bridge/outbox.ts); the judge takes
// the list as text, runs it on a real client of its own (facade-host.ts), and answers with plain
// data.
//
// It offers what the Redis katas call, with the `redis` package's shapes (node-redis 6.3.1 over
// RESP2), so that code judged here runs unchanged against the real client: the typed commands of
// problems/redis-client.ts (time, get, set, hSet, zAdd, …; multi() for a transaction), and
//   scriptLoad(script)                       → the script's SHA1
//   evalSha(sha1, { keys?, arguments? })     → the script's reply
//   eval(script, { keys?, arguments? })      → the script's reply
//   sendCommand([name, ...args])             → the command's reply
// Each typed command builds its arguments as the real client's parseCommand does (numbers turned
// into text where it turns them, Infinity into '+inf' for scores) and converts its reply as the
// real client's transformReply does (hGetAll to an object, zAdd's reply to a number, …), here in
// the realm, on plain data. The script commands and sendCommand take strings only, as the real
// client does. A Redis error rejects with an Error of the learner's realm carrying Redis's message
// (`NOSCRIPT No matching script…`), so code matches errors by message, as it must with a client
// that may live in another realm anyway. (A transaction in which commands failed rejects with the
// real client's message, "N commands failed, see .replies…", without those two fields.)
import type { RedisClient } from '../../problems/redis-client.ts';
import type { FixtureSpec } from '../suite.ts';

/** What learner code sees: problems/redis-client.ts's RedisClient, which the real client also is. */
export type RedisFacade = RedisClient;

/**
 * The first string of a request that carries a transaction (multi().….exec()): then come, for each
 * command, how many strings it has (decimal) and those strings. One request, so that the judge runs
 * the whole batch as one MULTI … EXEC on its client. (Restated inside makeRedisFacade, which may
 * use nothing outside itself.)
 */
export const MULTI_REQUEST = '\u0000MULTI';

export interface RedisClientOptions {
  /**
   * Wall time the judge waits for Redis's answer to one command before it rejects it with
   * "Redis did not answer within N ms". None by default, as the real client with default options
   * has none for a command already written: a command the server never answers (stopped, frozen)
   * then waits until the case ends, and a solution that set no deadline of its own hangs (the
   * case's call deadline makes that Time Limit Exceeded). A suite that wants the client to give up
   * by itself sets one.
   */
  commandTimeoutMs?: number;
}

/** Where the child leaves the problem's Redis key prefix for the suite (redisKey), on its global. */
export const REDIS_PREFIX_GLOBAL = '__kataRedisKeyPrefix';

/**
 * A Redis key of a case: `name` under the judgement's prefix (a fresh one per judgement, within the
 * prefix the judge owns on a user's server). A suite passes its keys through this, so that learner
 * code, which uses the key it is given as is, stays within what the judge may touch, and no
 * judgement sees another's keys. Read when called, in the child: the prefix is the one this problem
 * was opened with (none when the suite runs outside the judge).
 */
export function redisKey(name: string): string {
  const prefix = (globalThis as Record<string, unknown>)[REDIS_PREFIX_GLOBAL];
  return `${typeof prefix === 'string' ? prefix : ''}${name}`;
}

/**
 * A fixture: a Redis client of its own (one connection, as a separate API server would have), on
 * the Redis the child was handed. `fixture(name)` gives learner code its facade. It stands for that
 * server (FixtureSpec.server): the instance built with it runs its own load of the learner's module,
 * so that state kept in the module instead of Redis is not shared, as between real servers.
 */
export function redisClient(options: RedisClientOptions = {}): FixtureSpec {
  return { source: String(makeRedisFacade), args: [options], outbound: 'redis', server: true };
}

/**
 * The facade itself: evaluated in the learner's realm from its source text, so it may use nothing
 * outside itself. It runs when a case builds its fixtures (the judge on the stack), and then only
 * makes closures and object literals: it reads no global and no property, and sets none (a setter
 * learner code put on Object.prototype must not run with the judge on the stack). Everything else
 * happens in its methods, which only learner code calls.
 */
export function makeRedisFacade(post: (request: string[]) => Promise<unknown>): {
  handle: RedisFacade;
  control: Record<string, never>;
} {
  'use strict';
  const MULTI = '\u0000MULTI';
  type Args = unknown[];
  type Transform = ((reply: unknown) => unknown) | undefined;
  const describe = (value: unknown): string =>
    value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const text = (value: unknown, where: string): string => {
    if (typeof value !== 'string') {
      throw new TypeError(`"${where}" must be of type "string", got ${describe(value)} instead.`);
    }
    return value;
  };
  const strings = (value: unknown, where: string): string[] => {
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
      throw new TypeError(
        `"${where}" must be an array of strings, got ${describe(value)} instead.`,
      );
    }
    const list: string[] = [];
    const n = (value as unknown[]).length;
    for (let i = 0; i < n; i++) list.push(text((value as unknown[])[i], `${where}[${i}]`));
    return list;
  };
  const script = (name: string, first: unknown, options: unknown): string[] => {
    const head = text(first, name === 'EVAL' ? 'script' : 'sha1');
    if (options !== undefined && (typeof options !== 'object' || options === null)) {
      throw new TypeError(`"options" must be an object, got ${describe(options)} instead.`);
    }
    const given = (options ?? {}) as { keys?: unknown; arguments?: unknown };
    const keys = strings(given.keys, 'keys');
    const args = strings(given.arguments, 'arguments');
    return [name, head, `${keys.length}`, ...keys, ...args];
  };

  // The typed commands' arguments, built as node-redis 6.3.1 builds them (its commands/*.js
  // parseCommand): what it turns into text with toString() is turned here the same way, and what
  // it passes on as given is passed on as given, to be refused below if it is not a string.
  const str = (value: unknown): unknown => (value as { toString(): unknown }).toString();
  const double = (value: unknown): unknown =>
    value === Infinity ? '+inf' : value === -Infinity ? '-inf' : str(value);
  const bound = (value: unknown): unknown => (typeof value === 'number' ? double(value) : value);
  const hashValue = (value: unknown): unknown => (typeof value === 'number' ? str(value) : value);
  const variadic = (args: Args, values: unknown): Args => {
    if (Array.isArray(values)) for (const value of values as unknown[]) args.push(value);
    else args.push(values);
    return args;
  };
  const tuples = (args: Args, values: unknown[]): void => {
    for (const value of values) {
      if (Array.isArray(value)) tuples(args, value as unknown[]);
      else args.push(hashValue(value));
    }
  };
  type SetOptions = {
    expiration?: string | { type: string; value?: unknown };
    EX?: unknown;
    PX?: unknown;
    EXAT?: unknown;
    PXAT?: unknown;
    KEEPTTL?: unknown;
    condition?: string;
    matchValue?: unknown;
    NX?: unknown;
    XX?: unknown;
    GET?: unknown;
  };
  const SET = (key: unknown, value: unknown, options?: SetOptions): Args => {
    const args: Args = ['SET', key, typeof value === 'number' ? str(value) : value];
    if (options?.expiration) {
      if (typeof options.expiration === 'string') args.push(options.expiration);
      else if (options.expiration.type === 'KEEPTTL') args.push('KEEPTTL');
      else args.push(options.expiration.type, str(options.expiration.value));
    } else if (options?.EX !== undefined) args.push('EX', str(options.EX));
    else if (options?.PX !== undefined) args.push('PX', str(options.PX));
    else if (options?.EXAT !== undefined) args.push('EXAT', str(options.EXAT));
    else if (options?.PXAT !== undefined) args.push('PXAT', str(options.PXAT));
    else if (options?.KEEPTTL) args.push('KEEPTTL');
    if (options?.condition) {
      args.push(options.condition);
      if (options?.matchValue !== undefined) args.push(options.matchValue);
    } else if (options?.NX) args.push('NX');
    else if (options?.XX) args.push('XX');
    if (options?.GET) args.push('GET');
    return args;
  };
  const EXPIRE =
    (name: string) =>
    (key: unknown, time: unknown, mode?: unknown): Args => {
      const args: Args = [name, key, str(time)];
      if (mode) args.push(mode);
      return args;
    };
  const HSET = (key: unknown, value: unknown, fieldValue?: unknown): Args => {
    const args: Args = ['HSET', key];
    if (typeof value === 'string' || typeof value === 'number') {
      args.push(hashValue(value), hashValue(fieldValue));
    } else if (value instanceof Map) {
      for (const [field, item] of (value as Map<unknown, unknown>).entries()) {
        args.push(hashValue(field), hashValue(item));
      }
    } else if (Array.isArray(value)) {
      tuples(args, value as unknown[]);
    } else {
      const object = value as Record<string, unknown>;
      for (const field of Object.keys(object))
        args.push(hashValue(field), hashValue(object[field]));
    }
    return args;
  };
  type ZAddOptions = {
    condition?: string;
    NX?: unknown;
    XX?: unknown;
    comparison?: string;
    LT?: unknown;
    GT?: unknown;
    CH?: unknown;
  };
  const ZADD = (key: unknown, members: unknown, options?: ZAddOptions): Args => {
    const args: Args = ['ZADD', key];
    if (options?.condition) args.push(options.condition);
    else if (options?.NX) args.push('NX');
    else if (options?.XX) args.push('XX');
    if (options?.comparison) args.push(options.comparison);
    else if (options?.LT) args.push('LT');
    else if (options?.GT) args.push('GT');
    if (options?.CH) args.push('CH');
    const member = (entry: unknown): void => {
      const { score, value } = entry as { score: unknown; value: unknown };
      args.push(double(score), value);
    };
    if (Array.isArray(members)) for (const entry of members as unknown[]) member(entry);
    else member(members);
    return args;
  };
  type ZRangeOptions = { BY?: string; REV?: unknown; LIMIT?: { offset: unknown; count: unknown } };
  const ZRANGE = (key: unknown, min: unknown, max: unknown, options?: ZRangeOptions): Args => {
    const args: Args = ['ZRANGE', key, bound(min), bound(max)];
    if (options?.BY === 'SCORE') args.push('BYSCORE');
    else if (options?.BY === 'LEX') args.push('BYLEX');
    if (options?.REV) args.push('REV');
    if (options?.LIMIT) args.push('LIMIT', str(options.LIMIT.offset), str(options.LIMIT.count));
    return args;
  };
  const ZRANGE_WITHSCORES = (key: unknown, min: unknown, max: unknown, options?: ZRangeOptions) => {
    const args = ZRANGE(key, min, max, options);
    args.push('WITHSCORES');
    return args;
  };
  const byScore = (name: string) => (key: unknown, min: unknown, max: unknown) => [
    name,
    key,
    bound(min),
    bound(max),
  ];
  const one = (name: string) => (key: unknown) => [name, key];
  const many = (name: string) => (keys: unknown) => variadic([name], keys);
  const withMany = (name: string) => (key: unknown, values: unknown) =>
    variadic([name, key], values);

  // The replies, converted as node-redis 6.3.1 converts them under RESP2 (transformReply).
  const toDouble = (reply: unknown): number => {
    const value = str(reply);
    if (value === 'inf' || value === '+inf') return Infinity;
    if (value === '-inf') return -Infinity;
    if (value === 'nan') return NaN;
    return Number(reply);
  };
  const toObject = (reply: unknown): Record<string, unknown> => {
    const list = reply as unknown[];
    const object: Record<string, unknown> = {};
    for (let i = 0; i < list.length; i += 2) object[str(list[i]) as string] = list[i + 1];
    return object;
  };
  const toMembers = (reply: unknown): { value: unknown; score: number }[] => {
    const list = reply as unknown[];
    const members: { value: unknown; score: number }[] = [];
    for (let i = 0; i < list.length; i += 2) {
      members.push({ value: list[i], score: toDouble(list[i + 1]) });
    }
    return members;
  };

  // As the real client's encoder refuses what is not a string (nor a Buffer, which the realm lacks).
  const checked = (args: Args, offset = 0): string[] => {
    for (let i = 0; i < args.length; i++) {
      if (typeof args[i] !== 'string') {
        throw new TypeError(
          `"arguments[${i + offset}]" must be of type "string | Buffer", got ${typeof args[i]} instead.`,
        );
      }
    }
    return args as string[];
  };
  // Async, so that a bad argument rejects as the real client's methods do, rather than throwing.
  const typed =
    <A extends unknown[]>(parse: (...args: A) => Args, transform?: Transform) =>
    async (...args: A): Promise<unknown> => {
      const reply = await post(checked(parse(...args)));
      return transform === undefined ? reply : transform(reply);
    };

  // A transaction: each command is built when chained (a bad argument throws there, as in the real
  // client), and exec() sends them all in one request, then converts each reply as its command's.
  const multi = () => {
    const queued: { args: Args; transform: Transform }[] = [];
    const chain =
      <A extends unknown[]>(parse: (...args: A) => Args, transform?: Transform) =>
      (...args: A) => {
        queued.push({ args: parse(...args), transform });
        return builder;
      };
    const builder = {
      time: chain(() => ['TIME']),
      get: chain(one('GET')),
      set: chain(SET),
      del: chain(many('DEL')),
      exists: chain(many('EXISTS')),
      incr: chain(one('INCR')),
      incrBy: chain((key: unknown, by: unknown) => ['INCRBY', key, str(by)]),
      expire: chain(EXPIRE('EXPIRE')),
      pExpire: chain(EXPIRE('PEXPIRE')),
      ttl: chain(one('TTL')),
      pTTL: chain(one('PTTL')),
      hGet: chain((key: unknown, field: unknown) => ['HGET', key, field]),
      hmGet: chain(withMany('HMGET')),
      hSet: chain(HSET),
      hGetAll: chain(one('HGETALL'), toObject),
      hDel: chain(withMany('HDEL')),
      zAdd: chain(ZADD, toDouble),
      zCard: chain(one('ZCARD')),
      zCount: chain(byScore('ZCOUNT')),
      zRange: chain(ZRANGE),
      zRangeWithScores: chain(ZRANGE_WITHSCORES, toMembers),
      zRemRangeByScore: chain(byScore('ZREMRANGEBYSCORE')),
      zRem: chain(withMany('ZREM')),
      async exec(): Promise<unknown[]> {
        const request: string[] = [MULTI];
        let refused: unknown;
        for (const { args } of queued) {
          try {
            checked(args);
          } catch (error) {
            refused ??= error;
            continue;
          }
          request.push(`${args.length}`);
          for (const arg of args as string[]) request.push(arg);
        }
        if (refused !== undefined) {
          // As node-redis 6.3.1 does: it writes the transaction as it encodes it, leaves out a
          // command it cannot encode, and rejects with that error at once; Redis runs the rest.
          post(request).then(undefined, () => {});
          throw refused;
        }
        const replies = (await post(request)) as unknown[];
        const converted: unknown[] = [];
        for (let i = 0; i < replies.length; i++) {
          const transform = queued[i]?.transform;
          converted.push(transform === undefined ? replies[i] : transform(replies[i]));
        }
        return converted;
      },
    };
    return builder;
  };

  const handle = {
    time: typed(() => ['TIME']),
    get: typed(one('GET')),
    set: typed(SET),
    del: typed(many('DEL')),
    exists: typed(many('EXISTS')),
    incr: typed(one('INCR')),
    incrBy: typed((key: unknown, by: unknown) => ['INCRBY', key, str(by)]),
    expire: typed(EXPIRE('EXPIRE')),
    pExpire: typed(EXPIRE('PEXPIRE')),
    ttl: typed(one('TTL')),
    pTTL: typed(one('PTTL')),
    hGet: typed((key: unknown, field: unknown) => ['HGET', key, field]),
    hmGet: typed(withMany('HMGET')),
    hSet: typed(HSET),
    hGetAll: typed(one('HGETALL'), toObject),
    hDel: typed(withMany('HDEL')),
    zAdd: typed(ZADD, toDouble),
    zCard: typed(one('ZCARD')),
    zCount: typed(byScore('ZCOUNT')),
    zRange: typed(ZRANGE),
    zRangeWithScores: typed(ZRANGE_WITHSCORES, toMembers),
    zRemRangeByScore: typed(byScore('ZREMRANGEBYSCORE')),
    zRem: typed(withMany('ZREM')),
    multi,
    async scriptLoad(source: string) {
      return (await post(['SCRIPT', 'LOAD', text(source, 'script')])) as string;
    },
    async evalSha(sha1: string, options?: unknown) {
      return post(script('EVALSHA', sha1, options));
    },
    async eval(source: string, options?: unknown) {
      return post(script('EVAL', source, options));
    },
    async sendCommand(args: readonly string[]) {
      const list = strings(args, 'args');
      if (list.length === 0) throw new TypeError('"args" must name a command');
      return post(list);
    },
  };
  return { handle: handle as unknown as RedisFacade, control: {} };
}
