// Scenarios that any rate limiter kept in Redis faces, whatever its algorithm: a race of many servers
// on one key, servers whose clocks disagree, an emptied script cache, a restart, a Redis that stops
// answering, two settings in one process, keys a Redis Cluster could not route, bad input, and a
// mixed stream checked against the model. A suite gives each its settings and wraps it in a case
// with its own name, trap and hint; every answer is checked by the oracle (limiter-oracle.ts).
import { fixture, type Play } from '../suite.ts';
import { checkNoKeys, checkScripts, pseudoRandom } from './checks.ts';
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

/** The learner's limiters of one case, and the oracle that checks their answers. */
export class Limiters {
  private readonly oracle: LimiterOracle;

  constructor(
    private readonly play: Play,
    private readonly modelOf: ModelOf,
  ) {
    this.oracle = new LimiterOracle(play);
  }

  /** One instance per settings, the i-th on client r<i> (redisClients in checks.ts). */
  async build(settings: Settings[]): Promise<Limiter[]> {
    const made: Limiter[] = [];
    for (const [i, s] of settings.entries()) {
      const target = await this.play.construct([fixture(`r${i}`), ...s]);
      made.push({ target, group: s.join('/'), model: this.modelOf(s) });
    }
    return made;
  }

  /** `allow(name, cost)` on a limiter, the key under the judgement's prefix, checked. */
  allow(limiter: Limiter, name: string, cost?: number): Promise<LimiterAnswer> {
    const { target, group, model } = limiter;
    return this.oracle.allow(target, group, model, redisKey(name), cost);
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
 * Two instances of different settings on keys `a` and `b`, `calls` calls picked by a fixed
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
      const who = made[next(2)]!;
      const wait = next(options.waitOneIn) === 0 ? next(options.maxWaitMs) : 0;
      if (wait > 0) await pause(play, wait);
      const cost = next(3) === 0 ? 1 + next(5) : undefined;
      await limiters.allow(who, next(2) ? 'a' : 'b', cost);
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

/** Calls with `costs` on a key with a hash tag, MONITOR watching which keys each script touches. */
export function clusterKeys(modelOf: ModelOf, settings: Settings, costs: number[]): Scenario {
  return async (play) => {
    const limiters = new Limiters(play, modelOf);
    const [a] = await limiters.build([settings]);
    const stop = await play.redis.watchScripts();
    for (const cost of costs) await limiters.allow(a!, '{user}:k', cost);
    await checkScripts(play, stop);
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
