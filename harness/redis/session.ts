// The Redis of one command (kata, grade): opened (with REDIS_URL, prepared on the user's server) the
// first time a problem that requires Redis is about to be judged, and closed when the command ends: on
// return, on an error (the caller's finally), and on Ctrl-C or SIGTERM (here). Each judgement gets a
// Redis of its own from it (target.ts: a server of the judge's, or a prefix and users on the user's),
// given back when the judgement ends (release) or, at the latest, when the command does. A kill -9
// leaves the judge's servers to their guardians (guardian.ts). A problem that does not require Redis
// never starts anything.
// CommandRedis listens for the signals only while a Redis is open: they then close it and exit, as
// the default would have (130 for Ctrl-C), unless the command listens itself and quits its own way.
import { RedisStartError } from './server.ts';
import { openRedis, type RedisHome, type RedisTarget } from './target.ts';

/** What judge() takes for a problem's Redis (see JudgeOptions): nothing for one without Redis. */
export interface JudgeRedisOptions {
  redisUrl?: string;
  redisAdminUrl?: string;
  redisKeyPrefix?: string;
  /** Gives the judgement's Redis back (stops its server); judge() calls it once it is done. */
  release?: () => Promise<void>;
}

const SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
/** A signal ends the command within this long, however slow a Redis is to close. */
const CLOSE_ON_SIGNAL_MS = 1500;

export class CommandRedis {
  private opening: Promise<RedisHome> | undefined;
  private closing: Promise<void> | undefined;
  /** The judgements' Redis not given back yet: closed with the command. */
  private readonly live = new Set<RedisTarget>();
  private readonly releasing = new Set<Promise<void>>();
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    const code = SIGNALS[signal as keyof typeof SIGNALS] ?? 1;
    // A second Ctrl-C while the first is still cleaning up: stop at once.
    if (this.closing !== undefined) process.exit(code);
    // Someone else listens too (kata's watch mode quits on SIGINT): the command ends its own way,
    // and its finally finds Redis closed or closing. Otherwise the signal ends the command here.
    const handled = process.listenerCount(signal) > 1;
    const closing = this.close();
    if (!handled) {
      // A server that never answers must not hold the command: the guardians stop the judge's own.
      setTimeout(() => process.exit(code), CLOSE_ON_SIGNAL_MS).unref();
      void closing.finally(() => process.exit(code));
    }
  };

  /**
   * `open` is openRedis unless a test says otherwise; `say` prints the one line a user's server gets
   * before learner scripts run on it (stderr by default, so that --json output stays JSON).
   */
  constructor(
    private readonly open: () => Promise<RedisHome> = () => openRedis(),
    private readonly say: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  ) {}

  /** Judgements handed a Redis so far: each gets keys (or a server) of its own. */
  private judgements = 0;

  /** Whether Redis was opened by this command: for tests. */
  get started(): boolean {
    return this.opening !== undefined;
  }

  /**
   * The judge() options of one judgement of a problem: for one that requires Redis, its URLs and key
   * prefix, and how to give it back; nothing for any other problem. Every judgement gets a Redis of
   * its own: problems and re-judgements (kata's watch mode) must not see each other's keys, nor
   * meet each other's scripts. Rejects with a RedisStartError when Redis cannot be started or used.
   */
  async optionsFor(problem: { requires?: readonly string[] }): Promise<JudgeRedisOptions> {
    const prepared = this.prepared;
    this.prepared = undefined;
    if (prepared !== undefined && problem.requires?.includes('redis')) return prepared;
    return this.judgementOptions(problem);
  }

  /** A judgement's Redis made ahead of time by prepare(), handed to the next optionsFor. */
  private prepared: Promise<JudgeRedisOptions> | undefined;

  /**
   * Makes the next judgement's Redis now, so that a command learns before anything else whether
   * Redis can be used (kata says so in one line before the statement); optionsFor hands it out.
   * Rejects as optionsFor does.
   */
  async prepare(problem: { requires?: readonly string[] }): Promise<void> {
    if (!problem.requires?.includes('redis') || this.prepared !== undefined) return;
    const made = this.judgementOptions(problem);
    this.prepared = made;
    made.catch(() => {
      if (this.prepared === made) this.prepared = undefined;
    });
    await made;
  }

  private async judgementOptions(problem: {
    requires?: readonly string[];
  }): Promise<JudgeRedisOptions> {
    if (!problem.requires?.includes('redis')) return {};
    if (this.closing !== undefined) throw new RedisStartError('the command is ending');
    if (this.opening === undefined) {
      // Listening before starting: a Ctrl-C during the start still cleans up what it made.
      for (const signal of Object.keys(SIGNALS)) process.on(signal, this.onSignal);
      this.opening = this.open().then((home) => {
        if (home.warning !== undefined) this.say(home.warning);
        return home;
      });
    }
    this.judgements += 1;
    // Read before waiting: judgements asked for at once each keep their own number.
    const judgement = this.judgements;
    const home = await this.opening;
    const target = await home.judgement(judgement);
    if (this.closing !== undefined) {
      await target.close();
      throw new RedisStartError('the command is ending');
    }
    this.live.add(target);
    let released: Promise<void> | undefined;
    const release = (): Promise<void> => {
      released ??= (async () => {
        this.live.delete(target);
        await target.close();
      })();
      this.releasing.add(released);
      return released;
    };
    return {
      redisUrl: target.url,
      redisAdminUrl: target.adminUrl,
      redisKeyPrefix: target.keyPrefix,
      release,
    };
  }

  /** Stops the judge's servers, or on the user's, deletes the judge's users and keys. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        const home = await this.opening?.catch(() => undefined);
        await Promise.allSettled([
          ...[...this.live].map((target) => target.close()),
          ...this.releasing,
        ]);
        this.live.clear();
        await home?.close();
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
