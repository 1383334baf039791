// A redis-server owned by the judge: a free loopback port, a fresh temporary directory, no persistence,
// and a guardian (guardian.ts) that kills it when its owner goes away, however that happens.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { findRedisServer, redisAvailability } from './availability.ts';
import { EXIT_LINE, GUARDIAN_SCRIPT, PID_LINE } from './guardian.ts';

export interface RedisServer {
  /** redis://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  /** The redis-server process (not its guardian): the latest, after a restart (see guardian.ts). */
  readonly pid: number;
  readonly dir: string;
  /** The server's log so far (the last 16 KB), for error reports. */
  log(): string;
  /** Kills the server and removes its directory; resolves once the process is gone. Idempotent. */
  stop(): Promise<void>;
}

export interface StartRedisOptions {
  /** Defaults to REDIS_SERVER, then redis-server on PATH. */
  serverPath?: string;
  /** More redis-server options, e.g. ['--cluster-enabled', 'yes']. */
  args?: readonly string[];
  /**
   * Lines of a configuration file (`user judge on >secret ~1:* +@read`), written into the server's
   * own directory (mode 0600) rather than onto its command line, which every process can read.
   */
  config?: readonly string[];
  readyTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

export class RedisStartError extends Error {
  override name = 'RedisStartError';
}

type Guardian = ChildProcessByStdio<Writable, Readable, Readable>;

const LOG_LIMIT = 16 * 1024;
const READY_LINE = 'Ready to accept connections';
// Another process can take the port between our probe and the server's bind: then try another one.
const PORT_ATTEMPTS = 5;

/** A port the kernel just handed out on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

function serverArgs(
  port: number,
  dir: string,
  extra: readonly string[],
  config: readonly string[],
): string[] {
  let file: string[] = [];
  if (config.length > 0) {
    const conf = path.join(dir, 'redis.conf');
    writeFileSync(conf, `${config.join('\n')}\n`, { mode: 0o600 });
    file = [conf];
  }
  return [
    ...file,
    '--port', String(port),
    '--bind', '127.0.0.1',
    '--dir', dir,
    // No RDB snapshots, no AOF: nothing is written, and stopping with SIGKILL loses nothing we need.
    '--save', '',
    '--appendonly', 'no',
    '--daemonize', 'no',
    '--logfile', '',
    ...extra,
  ]; // prettier-ignore
}

/** Resolves when the guardian process has exited (at once when it already has). */
function exited(guardian: Guardian): Promise<void> {
  if (guardian.exitCode !== null || guardian.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => guardian.once('exit', () => resolve()));
}

function killGroup(guardian: Guardian): void {
  // Only while Node has not reaped the guardian: until then its pid (the group id) cannot be reused.
  if (guardian.exitCode !== null || guardian.signalCode !== null) return;
  try {
    // Detached: the guardian leads its own process group, which holds the server and the watcher.
    process.kill(-guardian.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

interface Attempt {
  guardian: Guardian;
  pid: number;
  log: () => string;
}

/** One start on one port: the server's pid once it accepts connections, or why it did not. */
function attempt(
  serverPath: string,
  args: string[],
  dir: string,
  timeoutMs: number,
): Promise<Attempt> {
  // detached: Ctrl-C in a terminal reaches the owner only; the owner decides when the server stops.
  const guardian = spawn(
    '/bin/sh',
    ['-c', GUARDIAN_SCRIPT, 'redis-guardian', dir, serverPath, ...args],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let output = '';
  const log = () => output;
  // The log is read for as long as the server runs, so a chatty server never blocks on a full pipe.
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-LOG_LIMIT);
  };
  guardian.stdout.on('data', append);
  guardian.stderr.on('data', append);
  // Closing the pipe of a guardian that already died reports EPIPE: expected, and nothing to act on.
  guardian.stdin.on('error', () => {});
  return new Promise((resolve, reject) => {
    const settle = () => {
      clearTimeout(timer);
      guardian.stdout.off('data', check);
      guardian.off('close', early);
    };
    const fail = (why: string) => {
      settle();
      guardian.stdin.end();
      killGroup(guardian);
      reject(new RedisStartError(`${why}\n${output.trim()}`));
    };
    const check = () => {
      // A server that exited is reported once the guardian's pipes have closed (see early): its
      // stderr, which says why, may not have been read yet when the exit line arrives on stdout.
      if (EXIT_LINE.test(output)) return;
      if (output.includes(READY_LINE)) {
        settle();
        resolve({ guardian, pid: Number(PID_LINE.exec(output)?.[1]), log });
      }
    };
    // 'close', not 'exit': by then all of the output has been read, including why the server stopped.
    const early = () => {
      const exit = EXIT_LINE.exec(output);
      fail(
        exit
          ? `redis-server exited with status ${exit[1]} before it was ready`
          : 'the redis guardian exited before the server was ready',
      );
    };
    const timer = setTimeout(
      () => fail(`redis-server did not accept connections within ${timeoutMs} ms`),
      timeoutMs,
    );
    guardian.stdout.on('data', check);
    guardian.on('close', early);
    guardian.on('error', (error) => fail(`could not start the redis guardian: ${error.message}`));
  });
}

export async function startRedis(options: StartRedisOptions = {}): Promise<RedisServer> {
  const env = options.env ?? process.env;
  const serverPath = options.serverPath ?? findRedisServer(env);
  if (!serverPath) {
    const availability = redisAvailability({ ...env, REDIS_URL: undefined });
    throw new RedisStartError(
      availability.available ? 'redis-server not found' : availability.message,
    );
  }
  const timeoutMs = options.readyTimeoutMs ?? 5000;
  for (let tries = 1; ; tries++) {
    const port = await freePort();
    const dir = mkdtempSync(path.join(tmpdir(), 'window-katas-redis-'));
    try {
      const started = await attempt(
        serverPath,
        serverArgs(port, dir, options.args ?? [], options.config ?? []),
        dir,
        timeoutMs,
      );
      return owned(started, port, dir);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      const portTaken = String(error).includes('Address already in use');
      if (!portTaken || tries >= PORT_ATTEMPTS) throw error;
    }
  }
}

function owned({ guardian, pid, log }: Attempt, port: number, dir: string): RedisServer {
  // The owner's process may exit without calling stop(): its exit closes the pipe, and the guardian
  // does the rest.
  guardian.unref();
  // Child-process pipes are sockets, though typed as plain streams.
  for (const pipe of [guardian.stdin, guardian.stdout, guardian.stderr]) (pipe as Socket).unref();
  let stopping: Promise<void> | undefined;
  const stop = async () => {
    guardian.ref();
    guardian.stdin.end();
    const gone = exited(guardian);
    const late = setTimeout(() => killGroup(guardian), 2000);
    await gone;
    clearTimeout(late);
    rmSync(dir, { recursive: true, force: true });
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    // The last pid line: the guardian prints one again when it starts the server again.
    get pid() {
      const all = [...log().matchAll(new RegExp(PID_LINE.source, 'gm'))];
      return Number(all.at(-1)?.[1] ?? pid);
    },
    dir,
    log,
    stop: () => (stopping ??= stop()),
  };
}

/**
 * The judge's Redis failed while a judgement ran (its own checks could not reach it, or a server
 * died): the judge's failure, not the learner's. Nothing judged meanwhile is kept (memo.ts).
 */
export class RedisFailedError extends RedisStartError {
  override name = 'RedisFailedError';
}
