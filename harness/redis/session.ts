// The Redis of one command (kata, grade): started (or, with REDIS_URL, prepared on the user's server)
// the first time a problem that requires Redis is about to be judged, shared by every such problem
// of the command, and closed when the command ends: on return, on an error (the caller's finally),
// and on Ctrl-C or SIGTERM (here). A kill -9 leaves the judge's own server to its guardian
// (guardian.ts). A problem that does not require Redis never starts anything.
// CommandRedis listens for the signals only while a Redis is open: they then close it and exit, as
// the default would have (130 for Ctrl-C), unless the command listens itself and quits its own way.
import type { Unmet } from '../judge/requirements.ts';
import { RedisStartError } from './server.ts';
import { openRedis, type RedisTarget } from './target.ts';

/** What judge() takes for a problem's Redis (see JudgeOptions): nothing for one without Redis. */
export interface JudgeRedisOptions {
  redisUrl?: string;
  redisAdminUrl?: string;
  redisKeyPrefix?: string;
}

const SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

export class CommandRedis {
  private opening: Promise<RedisTarget> | undefined;
  private closing: Promise<void> | undefined;
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    const code = SIGNALS[signal as keyof typeof SIGNALS] ?? 1;
    // A second Ctrl-C while the first is still cleaning up: stop at once.
    if (this.closing !== undefined) process.exit(code);
    // Someone else listens too (kata's watch mode quits on SIGINT): the command ends its own way,
    // and its finally finds Redis closed or closing. Otherwise the signal ends the command here.
    const handled = process.listenerCount(signal) > 1;
    const closing = this.close();
    if (!handled) void closing.finally(() => process.exit(code));
  };

  /** `open` is openRedis unless a test says otherwise. */
  constructor(private readonly open: () => Promise<RedisTarget> = () => openRedis()) {}

  /** Judgements handed a Redis so far: each gets keys of its own (see optionsFor). */
  private judgements = 0;

  /** Whether a server was started (or the user's prepared) by this command: for tests. */
  get started(): boolean {
    return this.opening !== undefined;
  }

  /**
   * The judge() options of one judgement of a problem: for one that requires Redis, its URL and a
   * key prefix of its own, starting the server the first time; nothing for any other problem.
   * Every judgement gets a fresh prefix (`1:`, `2:`…, under the judge's prefix on a user's server):
   * problems and re-judgements (kata's watch mode) share the server, and must not see each
   * other's keys. Rejects with a RedisStartError when Redis cannot be started or used.
   */
  async optionsFor(problem: { requires?: readonly string[] }): Promise<JudgeRedisOptions> {
    if (!problem.requires?.includes('redis')) return {};
    if (this.closing !== undefined) throw new RedisStartError('the command is ending');
    if (this.opening === undefined) {
      // Listening before starting: a Ctrl-C during the start still cleans up what it made.
      for (const signal of Object.keys(SIGNALS)) process.on(signal, this.onSignal);
      this.opening = this.open();
    }
    this.judgements += 1;
    const judgement = this.judgements;
    const target = await this.opening;
    return {
      redisUrl: target.url,
      redisAdminUrl: target.adminUrl,
      redisKeyPrefix: `${target.keyPrefix}${judgement}:`,
    };
  }

  /** Stops the judge's server, or on the user's, deletes the judge's user and keys. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        const target = await this.opening?.catch(() => undefined);
        await target?.close();
      } finally {
        for (const signal of Object.keys(SIGNALS)) process.off(signal, this.onSignal);
      }
    })();
    return this.closing;
  }
}

/**
 * Why Redis could not be started or used, in one line: the error's first line, and when a server's
 * log follows it (startRedis), that log's last line, which most often says why it stopped.
 */
export function redisStartLine(error: RedisStartError): string {
  const [first = '', ...log] = error.message.split('\n');
  const last = log
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('window-katas-redis'));
  const why = last.at(-1);
  return why === undefined ? first : `${first}: ${why}`;
}

/** A problem whose Redis could not be started or used, as grade lists one without Redis. */
export function redisStartUnmet(error: RedisStartError): Unmet {
  const line = redisStartLine(error);
  return { requirement: 'redis', label: 'needs Redis', message: line, note: line };
}
