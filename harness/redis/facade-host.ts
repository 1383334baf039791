// The judge's side of the Redis facade (facade.ts): one real client of the `redis` package per
// facade, as separate API servers would each have their own connection, all on the Redis the child
// was handed. It runs the requests the realm queued, each checked first (learner code chose every
// string), and answers with plain data or Redis's message. The clients never leave this realm.
import type { OutboundAnswer, OutboundHost, OutboundRequest } from '../judge/child/outbound.ts';

/** Wall time one command may wait for Redis unless the fixture says otherwise. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 1000;

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

interface Client {
  sendCommand(args: string[]): Promise<unknown>;
  destroy(): void;
}

interface Connection {
  /** Set as soon as the client exists (before it has connected), so that closing can reach it. */
  client?: Client;
  ready: Promise<Client>;
  closed: boolean;
  timeoutMs: number;
  /** Called on close, for every command still waiting: none answers the realm after that. */
  waiting: Set<() => void>;
}

let loading: Promise<typeof import('redis')> | undefined;
/**
 * The redis package, loaded once, on demand: it costs hundreds of ms of CPU (hundreds of modules)
 * that a grade without Redis must not pay, and that a case must not be charged for (see ready()).
 */
function loadRedis(): Promise<typeof import('redis')> {
  loading ??= import('redis');
  return loading;
}

function open(url: string, timeoutMs: number): Connection {
  const connection: Connection = {
    ready: Promise.resolve(undefined as never),
    closed: false,
    timeoutMs,
    waiting: new Set(),
  };
  connection.ready = (async () => {
    const { createClient } = await loadRedis();
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

function timeoutOf(args: readonly unknown[]): number {
  const options = args[0] as { commandTimeoutMs?: unknown } | undefined;
  const ms = options?.commandTimeoutMs;
  return typeof ms === 'number' && ms > 0 && Number.isFinite(ms) ? ms : DEFAULT_COMMAND_TIMEOUT_MS;
}

export class RedisFacadeHost implements OutboundHost {
  private connections = new Map<string, Connection>();
  private closed = false;

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
      const warm = open(this.url, DEFAULT_COMMAND_TIMEOUT_MS);
      try {
        const client = await Promise.race([
          warm.ready,
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error('slow')), 2000).unref(),
          ),
        ]);
        await client.sendCommand(['PING']);
      } catch {
        // Nothing to warm up against: the cases will say what is wrong.
      } finally {
        shut(warm);
      }
    })();
    return this.warmed;
  }

  reset(fixtures: readonly { name: string; args: readonly unknown[] }[]): void {
    this.closeAll();
    if (this.closed) return;
    for (const { name, args } of fixtures) {
      this.connections.set(name, open(this.url, timeoutOf(args)));
    }
  }

  dispatch(request: OutboundRequest, answer: (answer: OutboundAnswer) => void): void {
    const connection = this.connections.get(request.channel);
    if (connection === undefined) {
      answer({ ok: false, message: 'ERR this client is closed' });
      return;
    }
    const refused = refusal(request.args);
    if (refused !== undefined) {
      answer({ ok: false, message: refused });
      return;
    }
    let done = false;
    const finish = (outcome: OutboundAnswer | undefined): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      connection.waiting.delete(drop);
      if (outcome !== undefined) answer(outcome);
    };
    const drop = (): void => finish(undefined);
    connection.waiting.add(drop);
    const timer = setTimeout(
      () =>
        finish({ ok: false, message: `Redis did not answer within ${connection.timeoutMs} ms` }),
      connection.timeoutMs,
    );
    timer.unref();
    connection.ready
      .then((client) => client.sendCommand(request.args))
      .then(
        (value: unknown) => finish({ ok: true, value: value as never }),
        (error: unknown) =>
          finish({
            ok: false,
            message: error instanceof Error ? error.message || error.name : String(error),
          }),
      );
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
