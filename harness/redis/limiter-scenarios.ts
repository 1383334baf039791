// Scenarios that any rate limiter kept in Redis faces, whatever its algorithm: a race of many servers
// on one key, servers whose clocks disagree, an emptied script cache, a restart, a Redis that stops
// answering, two settings in one process, keys a Redis Cluster could not route, bad input, and a
// mixed stream checked against the model. A suite gives each its settings and wraps it in a case
// with its own name, trap and hint; every answer is checked by the oracle (limiter-oracle.ts).
import { fixture, type Play } from '../suite.ts';
import { checkExpiry, checkNoKeys, checkScriptKeys, pseudoRandom } from './checks.ts';
import { redisKey } from './facade.ts';
import { LimiterOracle, type LimiterAnswer, type LimiterModel } from './limiter-oracle.ts';

/** A limiter's two settings, as its constructor takes them after the client. */
export type Settings = [number, number];

/** The model of one group of settings (the kata's single-process reference on a given clock). */
export type ModelOf = (settings: Settings) => LimiterModel;

/** An instance of the learner's class, with what the oracle needs to check its answers. */
export interface Limiter {
  target: number;
  /** Instances with the same settings share their keys in Redis, and so one history. */
  group: string;
  model: LimiterModel;
}

/** How a case's Limiters check the keys beyond the answers. */
export interface KeyChecks {
  /**
   * "The Redis key is `key` itself", after every call: no key under the prefix but those given to
   * allow, and the key there after an allowed call. (Which keys each script declares is watched
   * with MONITOR in clusterKeys alone: a connection of its own per case costs more CPU than a
   * whole case.) Off only where a case's own check must be what fails first (see the suites).
   */
  keyItself?: boolean;
}

/** The learner's limiters of one case, and the oracle that checks their answers. */
export class Limiters {
  private readonly oracle: LimiterOracle;
  /** The keys the learner was given, in full. */
  private readonly given = new Set<string>();

  constructor(
    private readonly play: Play,
    private readonly modelOf: ModelOf,
    private readonly checks: KeyChecks = { keyItself: true },
  ) {
    this.oracle = new LimiterOracle(play);
  }

  /** One instance per settings, the i-th on client r<i> (redisClients in checks.ts). */
  async build(settings: Settings[]): Promise<Limiter[]> {
    const made: Limiter[] = [];
    for (const [i, s] of settings.entries()) {
      const target = await this.play.construct([fixture(`r${i}`), ...s]);
      this.play.sketch({ method: 'Limiter', args: s, expected: null, target });
      made.push({ target, group: s.join('/'), model: this.modelOf(s) });
    }
    return made;
  }

  /** Redis's time read just before and just after the latest call that was answered. */
  get lastBracket(): { t0: number; t1: number } {
    const bracket = this.oracle.lastBracket;
    if (bracket === undefined) throw new Error('no call has been answered yet');
    return bracket;
  }

  /** `allow(name, cost)` on a limiter, the key under the judgement's prefix, checked. */
  async allow(limiter: Limiter, name: string, cost?: number): Promise<LimiterAnswer> {
    const { target, group, model } = limiter;
    const key = redisKey(name);
    this.given.add(key);
    const answer = await this.oracle.allow(target, group, model, key, cost);
    if (this.checks.keyItself) await this.checkKeyItself(key, answer);
    return answer;
  }

  /**
   * Fails (a row) only when something is wrong: a key under the prefix that no call was given (a
   * second key of the learner's naming), or no key after an allowed call (state kept elsewhere).
   */
  private async checkKeyItself(key: string, answer: LimiterAnswer): Promise<void> {
    const keys = await this.play.redis.keys();
    const stray = keys.find((found) => !this.given.has(found));
    if (stray !== undefined) {
      this.play.check({
        what: 'keys after the call',
        expected: 'only the keys given to allow',
        actual: `also "${stray}"`,
        ok: false,
      });
    }
    // A key whose state is as new again may already be gone.
    if (answer.allowed && !keys.includes(key) && (await this.play.redis.now()) < answer.resetAt) {
      this.play.check({
        what: 'keys after the call',
        expected: `the key "${key}" itself, written by the allowed call`,
        actual: `no key "${key}"`,
        ok: false,
      });
    }
  }

  /**
   * `allow`, then every key's expiry checked against the kata's rule: no key expires before the
   * answer's resetAt, nor later than `lifetimeMs` after the call.
   */
  async allowAndCheckExpiry(
    limiter: Limiter,
    name: string,
    lifetimeMs: number,
    cost?: number,
  ): Promise<LimiterAnswer> {
    const answer = await this.allow(limiter, name, cost);
    const { t1 } = this.lastBracket;
    await checkExpiry(this.play, {
      key: redisKey(name),
      written: answer.allowed,
      notBefore: answer.resetAt,
      notAfter: t1 + lifetimeMs,
      from: t1,
      after: `after allow(${name}${cost === undefined ? '' : `, ${cost}`})`,
    });
    return answer;
  }
}

/** Waits `ms` on Redis's clock. */
async function pause(play: Play, ms: number): Promise<void> {
  await play.redis.waitUntil((await play.redis.now()) + ms);
}

type Scenario = (play: Play) => Promise<void>;

/**
 * `n` servers (instances on clients r0…), one request each at once on one key; `band` says how many
 * may be allowed, given how long the burst took on Redis's clock.
 */
export function burst(
  settings: Settings,
  n: number,
  band: (elapsedMs: number) => [number, number],
): Scenario {
  return async (play) => {
    const targets: number[] = [];
    for (let i = 0; i < n; i++) targets.push(await play.construct([fixture(`r${i}`), ...settings]));
    const key = redisKey('race');
    const t0 = await play.redis.now();
    await play.parallel(
      targets.map((target) => ({ method: 'allow', args: [key], target })),
      { allowed: true },
      async () => band((await play.redis.now()) - t0),
    );
  };
}

/**
 * Two servers with the same settings share one key, one clock 7 s ahead and the other 7 s behind,
 * calling in turn (A, B, A, B); then, after `thenWaitMs` (if any), A once more.
 */
export function skewedServers(modelOf: ModelOf, settings: Settings, thenWaitMs?: number): Scenario {
  return async (play) => {
    const limiters = new Limiters(play, modelOf);
    const [a, b] = await limiters.build([settings, settings]);
    for (const [who, skew] of [
      [a, 7000],
      [b, -7000],
      [a, 7000],
      [b, -7000],
    ] as const) {
      play.skewClock(skew);
      await limiters.allow(who!, 'k');
    }
    if (thenWaitMs === undefined) return;
    play.note('wait', `${thenWaitMs} ms`);
    await pause(play, thenWaitMs);
    play.skewClock(7000);
    await limiters.allow(a!, 'k');
  };
}

/** One call, the script cache emptied (as by a restart or a failover), two more calls. */
export function scriptCacheFlushed(modelOf: ModelOf, settings: Settings): Scenario {
  return async (play) => {
    const limiters = new Limiters(play, modelOf);
    const [a] = await limiters.build([settings]);
    await limiters.allow(a!, 'k');
    play.note('SCRIPT FLUSH', 'as after a restart or a failover');
    play.redis.forgetScripts();
    await limiters.allow(a!, 'k');
    await limiters.allow(a!, 'k');
  };
}

/** Two instances of different settings, both built first; each used to one past its limit. */
export function twoConfigurations(modelOf: ModelOf, small: Settings, big: Settings): Scenario {
  return async (play) => {
    const limiters = new Limiters(play, modelOf);
    const [a, b] = await limiters.build([small, big]);
    for (let i = 0; i <= small[0]; i++) await limiters.allow(a!, 'a');
    for (let i = 0; i <= big[0]; i++) await limiters.allow(b!, 'b');
  };
}

/**
 * Two instances of different settings, on keys `a`, `b` and `c`, `d`, `calls` calls picked by a fixed
 * pseudo-random walk: costs 1 to 5 now and then, waits of up to `maxWaitMs` now and then.
 */
export function mixedTraffic(
  modelOf: ModelOf,
  settings: [Settings, Settings],
  options: { seed: number; calls: number; maxWaitMs: number; waitOneIn: number },
): Scenario {
  return async (play) => {
    const limiters = new Limiters(play, modelOf);
    const made = await limiters.build(settings);
    const next = pseudoRandom(options.seed);
    for (let i = 0; i < options.calls; i++) {
      const index = next(2);
      const wait = next(options.waitOneIn) === 0 ? next(options.maxWaitMs) : 0;
      if (wait > 0) await pause(play, wait);
      const cost = next(3) === 0 ? 1 + next(5) : undefined;
      // Keys of their own: instances of different settings never share a key.
      const keys = index === 0 ? ['a', 'b'] : ['c', 'd'];
      await limiters.allow(made[index]!, keys[next(2)]!, cost);
    }
  };
}

/** Settings and costs out of range: each a RangeError, and nothing written. */
export function badInput(bad: unknown[][], good: Settings): Scenario {
  return async (play) => {
    for (const settings of bad) {
      await play.construct([fixture('r0'), ...settings], { throws: 'RangeError' });
    }
    const target = await play.construct([fixture('r0'), ...good]);
    for (const cost of [0, -1, 1.5, NaN, Infinity]) {
      await play.call(target, 'allow', [redisKey('k'), cost], { throws: 'RangeError' });
    }
    await checkNoKeys(play, 'after the refused input');
  };
}

/** Redis restarts: one call gets LOADING for everything it sends; the calls after must work. */
export function restart(modelOf: ModelOf, settings: Settings): Scenario {
  return async (play) => {
    const limiters = new Limiters(play, modelOf);
    const [a] = await limiters.build([settings]);
    play.note('Redis restarts', 'it answers LOADING until its data is back');
    play.redis.refuseAll('LOADING Redis is loading the dataset in memory');
    await play.call(a!.target, 'allow', [redisKey('k')], { throws: 'Error' });
    play.redis.refuseAll(undefined);
    play.note('Redis is back');
    await limiters.allow(a!, 'k');
    await limiters.allow(a!, 'k');
  };
}

/**
 * Calls with `costs` on a plain key and on one with a hash tag, MONITOR watching which keys each
 * script declares and touches: only the key given, and every call runs a script on it. A script on
 * `key` and `key:ts` shares a slot under a hash tag, and only a plain key shows that a cluster
 * would refuse it (CROSSSLOT).
 */
export function clusterKeys(settings: Settings, costs: number[]): Scenario {
  return async (play) => {
    const target = await play.construct([fixture('r0'), ...settings]);
    const stop = await play.redis.watchScripts();
    const calls = new Map<string, number>();
    for (const name of ['k', '{user}:k']) {
      const key = redisKey(name);
      for (const cost of costs) {
        // Any answer will do: this case is about keys, and so fails only on keys (other cases
        // that fail on this kata's keys put their failure down to this one: `needs`).
        await play.call(target, 'allow', [key, cost], (actual: unknown) => actual);
        calls.set(key, (calls.get(key) ?? 0) + 1);
      }
    }
    checkScriptKeys(play, await stop(), calls, true);
  };
}

/** One answered call, then Redis stops answering: the next must reject (the case's deadline). */
export function redisDown(modelOf: ModelOf, settings: Settings): Scenario {
  return async (play) => {
    const limiters = new Limiters(play, modelOf);
    const [a] = await limiters.build([settings]);
    await limiters.allow(a!, 'k');
    play.note('Redis stops answering', 'a crash or a network partition');
    play.redis.freeze();
    await play.call(a!.target, 'allow', [redisKey('k')], { throws: 'Error' });
  };
}
