// The judge's own view of a case's Redis, for scenario cases (Play.redis in suite.ts): Redis's clock,
// the keys the case left and their TTLs, what each script touched, and faults switched on in the
// learner's clients. It runs in the child, in the judge's realm, on a connection of its own (the
// server's owner on the judge's server, the user's REDIS_URL on theirs), and it reads and writes
// only keys under the judgement's prefix: a user's Redis is theirs.
import type { KeyState, RedisAdmin, ScriptRun } from '../suite.ts';
import type { RedisFacadeHost } from './facade-host.ts';

/**
 * A command of the judge's own checks failed. `busy`: Redis answered BUSY, a script of the learner's
 * still running (the learner's doing); anything else is the judge's failure (the server is gone,
 * does not answer, refuses the judge), never the learner's.
 */
export class RedisCheckError extends Error {
  override name = 'RedisCheckError';
  readonly busy: boolean;
  constructor(message: string) {
    super(message);
    this.busy = /^BUSY\b/.test(message);
  }
}

/** What stopping the learner's scripts after a case took (see AdminConnection.settle). */
export type Settled =
  /** Nothing was running. */
  | 'idle'
  /** A script was running, and SCRIPT KILL stopped it. */
  | 'killed'
  /** A script that wrote was running: the judge's own server was restarted, empty. */
  | 'restarted'
  /** A script that wrote was running on a server the judge may not restart (a user's). */
  | 'unkillable';

/** How many scripts settle() stops in a row before it calls Redis broken (a case has ≤ 50 clients). */
const SETTLE_ROUNDS = 200;
/** waitUntil reads Redis's clock without sleeping for the last this many milliseconds. */
const POLLED_MS = 3;
/** How long the checks wait for a restarted server to answer again. */
const RESTART_WAIT_MS = 5000;

interface Client {
  sendCommand(args: string[]): Promise<unknown>;
  monitor(listener: (line: string) => void): Promise<void>;
  destroy(): void;
}

/** Redis's error replies, once the redis package is loaded. */
let ErrorReply: (new () => Error) | undefined;
/** An error Redis answered (a reply), not a failure of the connection. */
const isReply = (error: unknown): boolean =>
  ErrorReply !== undefined && error instanceof ErrorReply;

/** Commands a scenario may read with: nothing that writes or reaches beyond a key. */
const READS = new Set([
  'EXISTS', 'GET', 'HGET', 'HGETALL', 'HLEN', 'HMGET', 'LLEN', 'LRANGE', 'PTTL', 'SCARD', 'SMEMBERS',
  'STRLEN', 'TTL', 'TYPE', 'ZCARD', 'ZCOUNT', 'ZRANGE', 'ZSCORE',
]); // prettier-ignore

/** CRC16 (XMODEM), as Redis Cluster hashes keys. */
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The cluster hash slot of a key: of its `{tag}` when it has a non-empty one. */
export function keySlot(key: string): number {
  const open = key.indexOf('{');
  const close = open === -1 ? -1 : key.indexOf('}', open + 1);
  const tagged = close > open + 1 ? key.slice(open + 1, close) : key;
  return crc16(new TextEncoder().encode(tagged)) % 16384;
}

/** `a*b?` as a SCAN pattern that matches it literally. */
export function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/** The arguments of one MONITOR line, unescaped as Redis escapes them (sdscatrepr). */
export function monitorArgs(line: string): { source: string; args: string[] } | undefined {
  const head = /^\d+\.\d+ \[\d+ ([^\]]*)\] /.exec(line);
  if (!head) return undefined;
  const args: string[] = [];
  const quoted = /"((?:[^"\\]|\\.)*)"/g;
  const body = line.slice(head[0].length);
  for (const match of body.matchAll(quoted)) {
    args.push(
      (match[1] as string).replace(/\\(x[0-9a-fA-F]{2}|.)/g, (_, code: string) => {
        if (code[0] === 'x' && code.length === 3)
          return String.fromCharCode(parseInt(code.slice(1), 16));
        return { n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b' }[code] ?? code;
      }),
    );
  }
  return { source: head[1] as string, args };
}

export class AdminConnection implements RedisAdmin {
  private client: Promise<Client> | undefined;
  private readonly extra: Client[] = [];

  /**
   * `host` is the facade host of the realm the case runs in: the learner's clients, where faults
   * are switched on.
   */
  constructor(
    private readonly url: string,
    private readonly prefix: string,
    private readonly host: () => RedisFacadeHost | undefined,
  ) {}

  private async connect(): Promise<Client> {
    const redis = await import('redis');
    const { createClient } = redis;
    ErrorReply = redis.ErrorReply as unknown as new () => Error;
    const client = createClient({
      url: this.url,
      RESP: 2,
      socket: { connectTimeout: 2000, reconnectStrategy: false },
    });
    // A dropped connection fails its commands; without a listener it would crash the child.
    client.on('error', () => {});
    await client.connect();
    return client as unknown as Client;
  }

  private command(args: string[]): Promise<unknown> {
    this.client ??= this.connect();
    const connecting = this.client;
    // A failed connection is tried again by the next command, not cached as failed forever.
    connecting.catch(() => {
      if (this.client === connecting) this.client = undefined;
    });
    return connecting
      .then((client) => client.sendCommand(args))
      .catch((error: unknown) => {
        // A dropped connection (a restart): the next command connects again.
        if (this.client === connecting && !isReply(error)) {
          this.client = undefined;
          void connecting.then(
            (client) => client.destroy(),
            () => undefined,
          );
        }
        throw new RedisCheckError(error instanceof Error ? error.message : String(error));
      });
  }

  /**
   * After a case: stops any script of the learner's still running, so that the next case, and the
   * next judgement on a user's server, find Redis answering. A script runs alone on its server, so
   * a PING that gets BUSY means one is (the judge's own server answers BUSY after JUDGE_SCRIPT_MS).
   * SCRIPT KILL stops a script that has not written; one that wrote cannot be stopped without
   * losing the data (UNKILLABLE): the judge's own server is then shut down, and its guardian starts
   * it again, empty; a user's server is left to them (the case's message says what to do).
   * Rejects with a RedisCheckError when Redis fails otherwise (the judge's failure).
   */
  async settle(): Promise<Settled> {
    // Scripts the case queued on several connections run one after another: stop each in turn.
    let worst: Settled = 'idle';
    const rank: Record<Settled, number> = { idle: 0, killed: 1, restarted: 2, unkillable: 3 };
    for (let round = 0; round < SETTLE_ROUNDS; round++) {
      const now = await this.stopScript();
      if (rank[now] > rank[worst]) worst = now;
      if (now === 'idle' || now === 'unkillable') return worst;
    }
    throw new RedisCheckError(`Redis was still busy after ${SETTLE_ROUNDS} scripts were stopped`);
  }

  /** One round of settle(): stops the script running now, if any. */
  private async stopScript(): Promise<Settled> {
    try {
      await this.command(['PING']);
      return 'idle';
    } catch (error) {
      if (!(error instanceof RedisCheckError) || !error.busy) throw error;
    }
    const kill = await this.command(['SCRIPT', 'KILL']).catch((error: unknown) => error);
    const answer = kill instanceof Error ? kill.message : String(kill);
    if (!/^UNKILLABLE\b/.test(answer)) {
      if (kill instanceof Error && !/^NOTBUSY\b/.test(answer)) throw kill;
      return 'killed';
    }
    const shutdown = await this.command(['SHUTDOWN', 'NOSAVE']).catch((error: unknown) => error);
    // NOPERM: not the judge's server to stop.
    if (shutdown instanceof Error && /^NOPERM\b/.test(shutdown.message)) return 'unkillable';
    const deadline = Date.now() + RESTART_WAIT_MS;
    for (;;) {
      try {
        await this.command(['PING']);
        return 'restarted';
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  async now(): Promise<number> {
    const [seconds, micros] = (await this.command(['TIME'])) as [string, string];
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  }

  async waitUntil(ms: number): Promise<number> {
    for (;;) {
      const now = await this.now();
      if (now >= ms) return now;
      // Slept until the last few milliseconds, which are read (TIME after TIME): a timer fires a
      // millisecond or more late, and a case whose call must land on one exact millisecond (the
      // edge of a window) then misses it by that much.
      const left = ms - now - POLLED_MS;
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(100, left)));
    }
  }

  async keys(): Promise<string[]> {
    const found = new Set<string>();
    let cursor = '0';
    do {
      const [next, batch] = (await this.command([
        'SCAN', cursor, 'MATCH', `${globEscape(this.prefix)}*`, 'COUNT', '1000',
      ])) as [string, string[]]; // prettier-ignore
      for (const key of batch) found.add(key);
      cursor = next;
    } while (cursor !== '0');
    return [...found].sort();
  }

  private mine(key: string): void {
    if (!key.startsWith(this.prefix)) {
      throw new Error(`the judge reads only its own keys, under "${this.prefix}": not "${key}"`);
    }
  }

  async pttl(key: string): Promise<number> {
    this.mine(key);
    return Number(await this.command(['PTTL', key]));
  }

  async snapshot(): Promise<Map<string, KeyState>> {
    const state = new Map<string, KeyState>();
    for (const key of await this.keys()) {
      // DUMP is binary: its bytes arrive as a latin1-safe string only by luck, so compare a
      // text form that is exact whatever the type: TYPE plus the type's full read, plus PTTL.
      const type = String(await this.command(['TYPE', key]));
      const read: Record<string, string[]> = {
        string: ['GET', key],
        hash: ['HGETALL', key],
        zset: ['ZRANGE', key, '0', '-1', 'WITHSCORES'],
        list: ['LRANGE', key, '0', '-1'],
        set: ['SMEMBERS', key],
      };
      const args = read[type];
      let value = args === undefined ? `(${type})` : JSON.stringify(await this.command(args));
      if (type === 'set' || type === 'hash') value = `${type}:${value}`;
      const pttl = Number(await this.command(['PTTL', key]));
      if (pttl !== -2) state.set(key, { value, pttl });
    }
    return state;
  }

  async read(args: string[]): Promise<unknown> {
    const name = (args[0] ?? '').toUpperCase();
    if (!READS.has(name))
      throw new Error(`the judge reads with ${[...READS].join(', ')}: not ${name}`);
    this.mine(args[1] ?? '');
    return this.command(args);
  }

  async seed(
    key: string,
    members: [score: number, member: string][],
    expiresAt: number,
  ): Promise<void> {
    this.mine(key);
    if (Number(await this.command(['EXISTS', key])) !== 0) {
      throw new Error(`the judge seeds only new keys: "${key}" exists`);
    }
    const args = members.flatMap(([score, member]) => [String(score), member]);
    await this.command(['ZADD', key, ...args]);
    await this.command(['PEXPIREAT', key, String(expiresAt)]);
  }

  forgetScripts(): void {
    this.needHost().forgetScripts();
  }

  freeze(): void {
    this.needHost().freeze();
  }

  refuseAll(message: string | undefined): void {
    this.needHost().refuseAll(message);
  }

  private needHost(): RedisFacadeHost {
    const host = this.host();
    if (host === undefined) throw new Error('this case has no Redis clients for learner code');
    return host;
  }

  async watchScripts(): Promise<() => Promise<ScriptRun[]>> {
    const monitor = await this.connect();
    this.extra.push(monitor);
    const lines: string[] = [];
    await monitor.monitor((line) => lines.push(String(line)));
    return async () => {
      // A command of the judge's own after the learner's: once MONITOR shows it, it has shown all
      // that came before (one connection's replies arrive in order).
      const marker = `window-katas-monitor-${Math.random().toString(36).slice(2)}`;
      await this.command(['ECHO', marker]);
      const deadline = Date.now() + 2000;
      while (!lines.some((line) => line.includes(marker)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      monitor.destroy();
      return this.scriptsIn(lines);
    };
  }

  /** Groups MONITOR's lines into script runs: a script's commands follow its EVAL line. */
  private async scriptsIn(lines: string[]): Promise<ScriptRun[]> {
    const runs: ScriptRun[] = [];
    let current: ScriptRun | undefined;
    for (const line of lines) {
      const parsed = monitorArgs(line);
      if (parsed === undefined) continue;
      const { source, args } = parsed;
      const name = (args[0] ?? '').toUpperCase();
      if (source !== 'lua') {
        current = undefined;
        if (name === 'EVAL' || name === 'EVALSHA' || name === 'EVAL_RO' || name === 'EVALSHA_RO') {
          const count = Number(args[2]);
          current = {
            command: name.startsWith('EVALSHA') ? `${name} ${args[1] ?? ''}` : name,
            declared: args.slice(3, 3 + (Number.isInteger(count) ? count : 0)),
            touched: [],
          };
          runs.push(current);
        }
        continue;
      }
      if (current === undefined) continue;
      const keys = (await this.command(['COMMAND', 'GETKEYS', ...args]).catch(
        () => [],
      )) as string[];
      for (const key of keys) if (!current.touched.includes(key)) current.touched.push(key);
    }
    // On a user's server, MONITOR sees everyone's scripts: keep only those on the judge's keys.
    return runs.filter((run) =>
      [...run.declared, ...run.touched].some((key) => key.startsWith(this.prefix)),
    );
  }

  /** Deletes every key under the prefix: a case starts with none of an earlier case's. */
  async clearKeys(): Promise<void> {
    const keys = await this.keys();
    for (let i = 0; i < keys.length; i += 500)
      await this.command(['UNLINK', ...keys.slice(i, i + 500)]);
  }

  /** Disconnects. */
  close(): void {
    for (const client of this.extra.splice(0)) client.destroy();
    const client = this.client;
    this.client = undefined;
    void client?.then(
      (c) => c.destroy(),
      () => undefined,
    );
  }
}
