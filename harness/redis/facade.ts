// The Redis client a learner's code receives: a facade built inside the learner's realm, never a
// client of the `redis` package. A real client is an object of the judge's realm: its methods'
// `constructor` is the judge's Function, which compiles code with the judge's powers. The facade
// holds nothing of the judge: its methods turn a call into a list of strings and hand it to `post`,
// the realm's one way out (see takeOutbound in inside-realm.ts); the judge takes the list as text,
// runs it on a real client of its own (facade-host.ts), and answers with plain data.
//
// It offers what the Redis katas call, with the `redis` package's shapes, so that code judged here
// runs unchanged against the real client:
//   scriptLoad(script)                       → the script's SHA1
//   evalSha(sha1, { keys?, arguments? })     → the script's reply
//   eval(script, { keys?, arguments? })      → the script's reply
//   sendCommand([name, ...args])             → the command's reply
// Arguments are strings (numbers are refused, as the real client refuses them); replies are plain
// data as RESP2 gives it: strings, integers, null, and lists of them. A Redis error rejects with an
// Error of the learner's realm carrying Redis's message (`NOSCRIPT No matching script…`), so code
// matches errors by message, as it must with a client that may live in another realm anyway.
import { REDIS_PREFIX_GLOBAL } from '../judge/child/protocol.ts';
import type { FixtureSpec } from '../suite.ts';

/** What Redis answers, as the facade gives it. */
export type RedisReply = string | number | null | RedisReply[];

export interface ScriptOptions {
  keys?: readonly string[];
  arguments?: readonly string[];
}

/** What learner code sees: a subset of the `redis` package's client, with the same shapes. */
export interface RedisFacade {
  scriptLoad(script: string): Promise<string>;
  evalSha(sha1: string, options?: ScriptOptions): Promise<RedisReply>;
  eval(script: string, options?: ScriptOptions): Promise<RedisReply>;
  sendCommand(args: readonly string[]): Promise<RedisReply>;
}

export interface RedisClientOptions {
  /**
   * Wall time the judge waits for Redis's answer to one command before it rejects it with
   * "Redis did not answer within N ms" (default 1000). A command the server never answers
   * (stopped, frozen) then fails within the call deadline instead of hanging the case.
   */
  commandTimeoutMs?: number;
}

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
 * the Redis the child was handed. `fixture(name)` gives learner code its facade.
 */
export function redisClient(options: RedisClientOptions = {}): FixtureSpec {
  return { source: String(makeRedisFacade), args: [options], outbound: 'redis' };
}

/**
 * The facade itself: evaluated in the learner's realm from its source text, so it may use nothing
 * outside itself. It runs when a case builds its fixtures (the judge on the stack), and then reads
 * no global and no property: everything else happens in its methods, which only learner code calls.
 */
export function makeRedisFacade(post: (request: string[]) => Promise<unknown>): {
  handle: RedisFacade;
  control: Record<string, never>;
} {
  'use strict';
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
    const given = (options ?? {}) as ScriptOptions;
    const keys = strings(given.keys, 'keys');
    const args = strings(given.arguments, 'arguments');
    return [name, head, `${keys.length}`, ...keys, ...args];
  };
  // Async, so that a bad argument rejects as the real client's methods do, rather than throwing.
  const handle: RedisFacade = {
    async scriptLoad(source: string) {
      return (await post(['SCRIPT', 'LOAD', text(source, 'script')])) as string;
    },
    async evalSha(sha1: string, options?: ScriptOptions) {
      return (await post(script('EVALSHA', sha1, options))) as RedisReply;
    },
    async eval(source: string, options?: ScriptOptions) {
      return (await post(script('EVAL', source, options))) as RedisReply;
    },
    async sendCommand(args: readonly string[]) {
      const list = strings(args, 'args');
      if (list.length === 0) throw new TypeError('"args" must name a command');
      return (await post(list)) as RedisReply;
    },
  };
  return { handle, control: {} };
}
