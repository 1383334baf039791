// The Redis client a solution of a Redis kata is given, as a type: the part of the `redis` package's
// client (node-redis v6, RESP2) that the katas use, with the same argument and reply shapes. Import
// it with `import type { RedisClient } from '../../problems/redis-client.ts'`: it vanishes when compiled, and it
// costs the type checker a few declarations where the `redis` package's types cost thousands.
//
// Code written against it runs unchanged on a real client: a client made by the `redis` package's
// createClient() is a RedisClient (the judge's tests check that), so nothing here exists only in the
// judge. The judge hands a solution its own object with these methods, which runs each command on a
// real client of the judge's and answers exactly as that client would.
//
// Arguments: keys, fields, members and script arguments are strings; where the real client turns a
// number into its decimal text itself (seconds, milliseconds, increments, scores, hash values), a
// number is accepted too. Replies are what Redis answers over RESP2 after the client's own
// conversion: strings, numbers, null, lists, and a few objects (hGetAll, zRangeWithScores).

/**
 * What a script or a raw command answers over RESP2: text, integers, null, and lists of them (a Lua
 * table comes back as a list, Lua's false as null, true as 1; a fraction is cut to an integer unless
 * the script returns it as text). The client types these replies `unknown`, as the script alone
 * knows their shape: say it with `as`, e.g. `(await redis.evalSha(sha, options)) as [number, string]`.
 */
export type RedisReply = string | number | null | RedisReply[];

/** KEYS and ARGV of a script: keys first, as Redis needs them to know what a script touches. */
export interface ScriptOptions {
  keys?: string[];
  arguments?: string[];
}

/** SET's options, as the `redis` package spells them (the upper-case flags are its older style). */
export interface SetOptions {
  expiration?:
    { type: 'EX' | 'PX' | 'EXAT' | 'PXAT'; value: number } | { type: 'KEEPTTL' } | 'KEEPTTL';
  /** Expire after this many seconds. */
  EX?: number;
  /** Expire after this many milliseconds. */
  PX?: number;
  /** Expire at this Unix time, in seconds. */
  EXAT?: number;
  /** Expire at this Unix time, in milliseconds. */
  PXAT?: number;
  /** Keep the TTL the key already has. */
  KEEPTTL?: boolean;
  /** NX: only if the key does not exist; XX: only if it does. */
  condition?: 'NX' | 'XX';
  /** Only if the key does not exist: the reply is null when it did. */
  NX?: boolean;
  /** Only if the key exists: the reply is null when it did not. */
  XX?: boolean;
  /** Answer the value the key had before (null if none) instead of 'OK'. */
  GET?: boolean;
}

/** When EXPIRE or PEXPIRE applies: no TTL yet, a TTL already, a later one, an earlier one. */
export type ExpireMode = 'NX' | 'XX' | 'GT' | 'LT';

/** A member of a sorted set and its score. */
export interface SortedSetMember {
  value: string;
  score: number;
}

/** ZADD's options: add only new members (NX) or update only existing ones (XX), and so on. */
export interface ZAddOptions {
  condition?: 'NX' | 'XX';
  NX?: boolean;
  XX?: boolean;
  /** Update a score only when the new one is lower (LT) or greater (GT). */
  comparison?: 'LT' | 'GT';
  LT?: boolean;
  GT?: boolean;
  /** Count changed members, not only added ones. */
  CH?: boolean;
}

/** ZRANGE's options: by rank (the default), by score or by lexical order; reversed; a page. */
export interface ZRangeOptions {
  BY?: 'SCORE' | 'LEX';
  REV?: boolean;
  LIMIT?: { offset: number; count: number };
}

/**
 * A score bound: a number (Infinity and -Infinity become '+inf' and '-inf'), or Redis's own text
 * for it, such as '-inf', '+inf' or '(5' for "greater than 5, not equal".
 */
export type ScoreBound = number | string;

/** The commands both the client and a transaction (multi) offer, answering `R<reply>`. */
interface Commands<R extends { [K in keyof Replies]: unknown }> {
  /** Redis's clock: two decimal strings, Unix seconds and the microseconds within that second. */
  time(): R['time'];
  /** The string at `key`, or null when there is none. */
  get(key: string): R['get'];
  /** Sets `key` to `value`: 'OK', or null when NX or XX kept it from being set (or, with GET, the old value). */
  set(key: string, value: string | number, options?: SetOptions): R['set'];
  /** Deletes keys; answers how many existed. */
  del(keys: string | string[]): R['number'];
  /** How many of the keys exist (a key named twice counts twice). */
  exists(keys: string | string[]): R['number'];
  /** Adds 1 to the integer at `key` (0 when missing); answers the new value. */
  incr(key: string): R['number'];
  /** Adds `increment` to the integer at `key` (0 when missing); answers the new value. */
  incrBy(key: string, increment: number): R['number'];
  /** Sets a TTL in seconds: 1 when set, 0 when the key is missing or `mode` refused it. */
  expire(key: string, seconds: number, mode?: ExpireMode): R['number'];
  /** Sets a TTL in milliseconds: 1 when set, 0 when the key is missing or `mode` refused it. */
  pExpire(key: string, milliseconds: number, mode?: ExpireMode): R['number'];
  /** The TTL in seconds: -1 when the key has none, -2 when there is no key. */
  ttl(key: string): R['number'];
  /** The TTL in milliseconds: -1 when the key has none, -2 when there is no key. */
  pTTL(key: string): R['number'];
  /** One field of the hash at `key`, or null. */
  hGet(key: string, field: string): R['get'];
  /** Several fields of the hash at `key`, in the order asked, null for each missing one. */
  hmGet(key: string, fields: string | string[]): R['hmGet'];
  /** Sets one field, or every field of an object; answers how many fields are new. */
  hSet(key: string, field: string | number, value: string | number): R['number'];
  hSet(key: string, fields: Record<string, string | number>): R['number'];
  /** Every field of the hash at `key` as an object ({} when there is no key). */
  hGetAll(key: string): R['hGetAll'];
  /** Deletes fields of the hash at `key`; answers how many existed. */
  hDel(key: string, fields: string | string[]): R['number'];
  /** Adds members or updates their scores; answers how many were added (changed, with CH). */
  zAdd(
    key: string,
    members: SortedSetMember | SortedSetMember[],
    options?: ZAddOptions,
  ): R['number'];
  /** How many members the sorted set at `key` has. */
  zCard(key: string): R['number'];
  /** How many members have a score within [min, max]. */
  zCount(key: string, min: ScoreBound, max: ScoreBound): R['number'];
  /** Members from `min` to `max` (ranks from 0, negative from the end, unless BY says otherwise). */
  zRange(key: string, min: ScoreBound, max: ScoreBound, options?: ZRangeOptions): R['zRange'];
  /** As zRange, with each member's score. */
  zRangeWithScores(
    key: string,
    min: ScoreBound,
    max: ScoreBound,
    options?: ZRangeOptions,
  ): R['zRangeWithScores'];
  /** Removes the members with a score within [min, max]; answers how many. */
  zRemRangeByScore(key: string, min: ScoreBound, max: ScoreBound): R['number'];
  /** Removes members; answers how many were there. */
  zRem(key: string, members: string | string[]): R['number'];
}

/** What each command answers on the client. */
interface Replies {
  time: Promise<string[]>;
  get: Promise<string | null>;
  set: Promise<string | null>;
  number: Promise<number>;
  hmGet: Promise<(string | null)[]>;
  hGetAll: Promise<Record<string, string>>;
  zRange: Promise<string[]>;
  zRangeWithScores: Promise<SortedSetMember[]>;
}

/** In a transaction, every command answers the transaction itself, to chain the next one. */
type Chained = { [K in keyof Replies]: RedisMulti };

/**
 * A transaction: commands queued by chaining (`redis.multi().hSet(…).pExpire(…)`), sent together
 * by exec() as one MULTI … EXEC, which Redis runs with no other client's command in between. Each
 * command's reply is in the list exec() answers, in order, converted as the command alone would be.
 * A command Redis refuses when queued fails the whole exec(); one that fails while running does not
 * stop the others, and exec() then rejects, saying how many failed.
 */
export interface RedisMulti extends Commands<Chained> {
  exec(): Promise<unknown[]>;
}

/** A connected client of the `redis` package, the part of it the Redis katas use. */
export interface RedisClient extends Commands<Replies> {
  /** Caches a Lua script on the server; answers its SHA1, for evalSha. */
  scriptLoad(script: string): Promise<string>;
  /**
   * Runs a script cached by its SHA1. When the server does not have it (after a restart, a
   * failover, SCRIPT FLUSH) this rejects with an Error whose message starts with 'NOSCRIPT', and
   * nothing ran.
   */
  evalSha(sha1: string, options?: ScriptOptions): Promise<unknown>;
  /** Runs a script sent whole (and caches it, so evalSha finds it afterwards). */
  eval(script: string, options?: ScriptOptions): Promise<unknown>;
  /** Any command, as a list of strings: its reply is not converted (see RedisReply). */
  sendCommand<T = unknown>(args: string[]): Promise<T>;
  /** Starts a transaction (see RedisMulti). */
  multi(): RedisMulti;
}
