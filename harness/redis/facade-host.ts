// The judge's side of the Redis facade (facade.ts): one real client of the `redis` package per
// facade, as separate API servers would each have their own connection, all on the Redis the child
// was handed. It runs the requests the realm queued, each checked first (learner code chose every
// string), and answers with plain data or Redis's message. The clients never leave this realm.
//
// It can also play faults a real deployment meets, switched on by a case between learner calls:
// a script cache emptied (forgetScripts) and a server that stops answering (freeze). Both are
// played here, on the judge's side, so that the server itself (perhaps a user's) is never touched.
import { createHash } from 'node:crypto';
import type { OutboundAnswer, OutboundHost, OutboundRequest } from '../sandbox/outbound.ts';
import { MULTI_REQUEST } from './facade.ts';

/** Redis 7.0's answer to EVALSHA of a script it does not have (server.c, shared.noscripterr). */
export const NOSCRIPT_MESSAGE = 'NOSCRIPT No matching script. Please use EVAL.';

/**
 * Commands a solution may not send: they reach beyond its own keys (the server's state, its
 * configuration, other connections, the database a connection is on) or change what the judge's
 * connection is (a subscriber, a replica, a transaction shared by every call on it).
 */
const REFUSED = new Set([
  'ACL', 'AUTH', 'BGREWRITEAOF', 'BGSAVE', 'CLIENT', 'CLUSTER', 'CONFIG', 'DEBUG', 'DISCARD',
  'EXEC', 'FAILOVER', 'FLUSHALL', 'FLUSHDB', 'FUNCTION', 'HELLO', 'MIGRATE', 'MODULE', 'MONITOR',
  'MULTI', 'PSUBSCRIBE', 'PSYNC', 'PUNSUBSCRIBE', 'QUIT', 'REPLICAOF', 'RESET', 'SAVE', 'SELECT',
  'SHUTDOWN', 'SLAVEOF', 'SSUBSCRIBE', 'SUBSCRIBE', 'SUNSUBSCRIBE', 'SWAPDB', 'SYNC', 'UNSUBSCRIBE',
  'UNWATCH', 'WATCH',
]); // prettier-ignore
/** SCRIPT's subcommands a solution may use: not FLUSH or KILL, which reach other clients' scripts. */
const SCRIPT_ALLOWED = new Set(['LOAD', 'EXISTS']);
/**
 * Script commands run alone, never in a transaction: forgetScripts answers them judge-side, which it
 * could not do for one command of a batch the server runs as a whole. (The facade's multi() offers
 * none of them, as RedisMulti in problems/redis-client.ts does not.)
 */
const SCRIPTS = new Set(['EVAL', 'EVALSHA', 'EVAL_RO', 'EVALSHA_RO', 'SCRIPT']);

interface Client {
  sendCommand(args: string[]): Promise<unknown>;
  multi(): { addCommand(args: string[]): unknown; exec(): Promise<unknown> };
  destroy(): void;
}

interface Connection {
  /** Set as soon as the client exists (before it has connected), so that closing can reach it. */
  client?: Client;
  ready: Promise<Client>;
  closed: boolean;
  /** The fixture's commandTimeoutMs: undefined for none. */
  timeoutMs: number | undefined;
  /** Called on close, for every command still waiting: none answers the realm after that. */
  waiting: Set<() => void>;
}

/** The longest a case waits for its clients to connect before it runs: then their commands wait. */
const CONNECT_WAIT_MS = 5000;

let loading: Promise<typeof import('redis')> | undefined;
/**
 * The redis package, loaded once, on demand: it costs hundreds of ms of CPU (hundreds of modules)
 * that a grade without Redis must not pay, and that a case must not be charged for (see ready()).
 */
function loadRedis(): Promise<typeof import('redis')> {
  loading ??= import('redis');
  return loading;
}

function open(url: string, timeoutMs: number | undefined): Connection {
  const connection: Connection = {
    ready: Promise.resolve(undefined as never),
    closed: false,
    timeoutMs,
    waiting: new Set(),
  };
  connection.ready = (async () => {
    const { createClient, ErrorReply } = await loadRedis();
    ServerError = ErrorReply as unknown as new () => Error;
    if (connection.closed) throw new Error('The client is closed');
    // RESP2: replies are strings, integers, null and lists, the plain data the facade promises.
    // No reconnecting: on a user's server (REDIS_URL) the URL logs in as the judge's confined user
    // (acl.ts), and node-redis, reconnecting after that user is gone, runs the commands it queued
    // even though AUTH failed, as the server's default user (seen on Redis 7.0: a SET outside the
    // prefix went through). A connection dropped mid-case fails its commands instead.
    const client = createClient({ url, RESP: 2, socket: { reconnectStrategy: false } });
    // Without a listener, a dropped connection is an unhandled 'error' event: the child would crash.
    client.on('error', () => {});
    connection.client = client as unknown as Client;
    await client.connect();
    // Closed while connecting: the client may have opened its socket after destroy() ran.
    if (connection.closed) {
      client.destroy();
      throw new Error('The client is closed');
    }
    return connection.client;
  })();
  // A failed connection answers each command with its reason (see dispatch); never unhandled.
  connection.ready.catch(() => {});
  return connection;
}

function shut(connection: Connection): void {
  connection.closed = true;
  for (const drop of [...connection.waiting]) drop();
  try {
    connection.client?.destroy();
  } catch {
    // Closed already.
  }
}

/** Why the judge refuses a command, or undefined when it runs. */
export function refusal(args: readonly string[]): string | undefined {
  const name = (args[0] ?? '').toUpperCase();
  if (REFUSED.has(name)) return `ERR the judge does not run ${name} for a solution`;
  if (name === 'SCRIPT' && !SCRIPT_ALLOWED.has((args[1] ?? '').toUpperCase())) {
    return `ERR the judge runs only SCRIPT LOAD and SCRIPT EXISTS for a solution`;
  }
  return undefined;
}

/** The commands of a transaction's request (see MULTI_REQUEST), or why it is malformed. */
export function batchOf(args: readonly string[]): string[][] | string {
  const commands: string[][] = [];
  let at = 1;
  while (at < args.length) {
    const count = args[at] as string;
    const n = /^[1-9][0-9]{0,4}$/.test(count) ? Number(count) : 0;
    if (n === 0 || at + 1 + n > args.length) return 'ERR a malformed transaction';
    const command = args.slice(at + 1, at + 1 + n);
    const refused = refusal(command);
    if (refused !== undefined) return refused;
    const name = (command[0] as string).toUpperCase();
    if (SCRIPTS.has(name)) return `ERR the judge runs ${name} outside a transaction only`;
    commands.push(command);
    at += 1 + n;
  }
  return commands;
}

function timeoutOf(args: readonly unknown[]): number | undefined {
  const options = args[0] as { commandTimeoutMs?: unknown } | undefined;
  const ms = options?.commandTimeoutMs;
  return typeof ms === 'number' && ms > 0 && Number.isFinite(ms) ? ms : undefined;
}

const sha1 = (script: string): string => createHash('sha1').update(script).digest('hex');

/** Marks a command forgetScripts answers itself (see RedisFacadeHost.scripts). */
const NOSCRIPT = Symbol('NOSCRIPT');
type After = (value: unknown, answered: boolean) => unknown;

/** Redis's error replies, once the redis package is loaded: the server's answers, not the line's. */
let ServerError: (new () => Error) | undefined;
const isServerError = (error: unknown): boolean =>
  ServerError !== undefined && error instanceof ServerError;

export class RedisFacadeHost implements OutboundHost {
  private connections = new Map<string, Connection>();
  private closed = false;
  /** Set by freeze(): no command reaches Redis or hears from it until the case ends. */
  private frozen = false;
  /** Set by refuseAll(): the error every command gets instead of reaching Redis. */
  private refusing: string | undefined;
  /**
   * Set by forgetScripts(): the SHA1s (lower case) of the scripts loaded or run with EVAL since; the
   * only ones EVALSHA finds. Undefined when no script has been forgotten this case.
   */
  private known: Set<string> | undefined;

  constructor(private readonly url: string) {}

  private warmed: Promise<void> | undefined;

  /**
   * Resolves once the redis package is loaded and one connection has run a command: await it
   * before a case starts counting CPU time, which would otherwise pay for loading and first use
   * (measured: the first case of a problem took 675 ms of CPU without it, 8 ms with it). A server
   * that does not answer is the cases' business.
   */
  ready(): Promise<void> {
    this.warmed ??= (async () => {
      const warm = open(this.url, undefined);
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const slow = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('slow')), 2000).unref();
        });
        const client = await Promise.race([warm.ready, slow]);
        await Promise.race([client.sendCommand(['PING']), slow]);
      } catch {
        // Nothing to warm up against: the cases will say what is wrong.
      } finally {
        clearTimeout(timer);
        shut(warm);
      }
    })();
    return this.warmed;
  }

  /**
   * Once every connection open now has connected (or failed to, or CONNECT_WAIT_MS has passed): the
   * statement hands learner code a client that is connected, so the time a connection takes to open
   * must not count against the learner's own deadline for its first command (on a busy machine,
   * fifty connections opening at once took longer than a solution's whole deadline).
   */
  connected(): Promise<void> {
    const opening = [...this.connections.values()].map((c) => c.ready.then(() => undefined));
    if (opening.length === 0) return Promise.resolve();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cap = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CONNECT_WAIT_MS);
    });
    return Promise.race([Promise.allSettled(opening), cap]).then(() => clearTimeout(timer));
  }

  reset(fixtures: readonly { name: string; args: readonly unknown[] }[]): void {
    this.closeAll();
    this.frozen = false;
    this.refusing = undefined;
    this.known = undefined;
    if (this.closed) return;
    for (const { name, args } of fixtures) {
      this.connections.set(name, open(this.url, timeoutOf(args)));
    }
  }

  /**
   * A way out for the clients of another realm of the same case (a separate server's: see
   * ServerRealms): its reset opens their connections beside the ones already open, and they share
   * this host's faults (a frozen server, a flushed script cache) as clients of one Redis do. The
   * host's own reset, when the next case begins, closes them with the rest.
   */
  view(): OutboundHost {
    return {
      reset: (fixtures) => {
        if (this.closed) return;
        for (const { name, args } of fixtures) {
          const before = this.connections.get(name);
          if (before !== undefined) shut(before);
          this.connections.set(name, open(this.url, timeoutOf(args)));
        }
      },
      dispatch: (request, answer) => this.dispatch(request, answer),
      connected: () => this.connected(),
      close: () => Promise.resolve(),
    };
  }

  /**
   * As after SCRIPT FLUSH, a restart or a failover, for every client of this host (a flush is
   * server-wide), without touching the server, which may be a user's: from now until the case ends,
   * EVALSHA of a script not loaded again (SCRIPT LOAD) nor run with EVAL since is answered with
   * Redis's NOSCRIPT error without reaching the server, and SCRIPT EXISTS answers 0 for it.
   */
  forgetScripts(): void {
    // A new set: a script whose EVAL or SCRIPT LOAD is still on its way was sent before the flush,
    // and is recorded (see scripts()) in the set it was sent under, which nothing reads any more.
    this.known = new Set();
  }

  /**
   * The server stops answering, as a crash or a partition looks to a client that has written its
   * command: every command waiting and every later one gets no answer until the case ends (reset
   * or close), unless the fixture set a commandTimeoutMs, which is the client's own and still fires.
   */
  freeze(): void {
    this.frozen = true;
  }

  /**
   * Until called again with undefined (or the case ends), every command is answered at once with
   * this error instead of reaching Redis: a server that is restarting answers `LOADING Redis is
   * loading the dataset in memory` until its data is back. Commands already sent are not affected.
   */
  refuseAll(message: string | undefined): void {
    this.refusing = message;
  }

  dispatch(request: OutboundRequest, answer: (answer: OutboundAnswer) => void): void {
    const connection = this.connections.get(request.channel);
    if (connection === undefined) {
      answer({ ok: false, message: 'ERR this client is closed' });
      return;
    }
    if (this.refusing !== undefined && !this.frozen) {
      answer({ ok: false, message: this.refusing });
      return;
    }
    const { args } = request;
    let run: (client: Client) => Promise<unknown>;
    let after: typeof NOSCRIPT | After | undefined;
    if (args[0] === MULTI_REQUEST) {
      const batch = batchOf(args);
      if (typeof batch === 'string') {
        answer({ ok: false, message: batch });
        return;
      }
      run = (client) => {
        const multi = client.multi();
        for (const command of batch) multi.addCommand(command);
        return multi.exec();
      };
    } else {
      const refused = refusal(args);
      if (refused !== undefined) {
        answer({ ok: false, message: refused });
        return;
      }
      run = (client) => client.sendCommand(args);
      after = this.scripts(args);
    }
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (outcome: OutboundAnswer | undefined): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      connection.waiting.delete(drop);
      if (outcome !== undefined) answer(outcome);
    };
    const drop = (): void => finish(undefined);
    // What the server says is lost once it is frozen: the command waits for the case to end.
    const heard = (outcome: OutboundAnswer): void => {
      if (!this.frozen) finish(outcome);
    };
    connection.waiting.add(drop);
    const ms = connection.timeoutMs;
    if (ms !== undefined) {
      timer = setTimeout(
        () => finish({ ok: false, message: `Redis did not answer within ${ms} ms` }),
        ms,
      );
      timer.unref();
    }
    if (this.frozen) return;
    if (after === NOSCRIPT) {
      finish({ ok: false, message: NOSCRIPT_MESSAGE });
      return;
    }
    const then = after;
    connection.ready.then(run).then(
      (value: unknown) => heard({ ok: true, value: (then ? then(value, true) : value) as never }),
      (error: unknown) => {
        then?.(undefined, isServerError(error));
        heard({
          ok: false,
          message: error instanceof Error ? error.message || error.name : String(error),
        });
      },
    );
  }

  /**
   * What forgetScripts changes for one command: NOSCRIPT when it must be answered here, without
   * reaching the server; else a function to give the server's answer to (`answered`: the server
   * ran the command, even if it answered with an error), which records a script loaded since and
   * hides the forgotten ones from SCRIPT EXISTS; undefined when nothing changes.
   */
  private scripts(args: readonly string[]): typeof NOSCRIPT | After | undefined {
    const known = this.known;
    if (known === undefined) return undefined;
    const name = (args[0] as string).toUpperCase();
    // Redis compares SHA1s without regard to case; so does this.
    const learn = (script: string | undefined) => known.add(sha1(script ?? ''));
    if (name === 'EVALSHA' || name === 'EVALSHA_RO') {
      return known.has((args[1] ?? '').toLowerCase()) ? undefined : NOSCRIPT;
    }
    if (name === 'EVAL' || name === 'EVAL_RO') {
      // Redis caches a script it compiles before running it: one that then fails is loaded too.
      return (value, answered) => {
        if (answered) learn(args[1]);
        return value;
      };
    }
    if (name !== 'SCRIPT') return undefined;
    const sub = (args[1] ?? '').toUpperCase();
    if (sub === 'LOAD') {
      return (value, answered) => {
        if (answered && value !== undefined) learn(args[2]);
        return value;
      };
    }
    if (sub === 'EXISTS') {
      // Read when the answer comes: a forgetScripts() since the command went out counts too.
      return (value) => {
        const now = this.known;
        if (!Array.isArray(value) || now === undefined) return value;
        return value.map((found: unknown, i) =>
          now.has((args[i + 2] ?? '').toLowerCase()) ? found : 0,
        );
      };
    }
    return undefined;
  }

  /** Drops every command still waiting (none answers the realm) and disconnects every client. */
  private closeAll(): void {
    for (const connection of this.connections.values()) shut(connection);
    this.connections = new Map();
  }

  /** How many clients the current case has open: for tests. */
  get size(): number {
    return this.connections.size;
  }

  close(): Promise<void> {
    this.closed = true;
    this.closeAll();
    return Promise.resolve();
  }
}
