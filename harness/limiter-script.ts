// The call builder of the suites whose class is built on a fake clock (every rate limiter kata, and
// the gateway in front of them): a case's calls written step by step, in LeetCode's encoding, with
// the instance each call goes to. A suite names its class once and adds the one method that builds
// it with its own settings (`limiter(limit, windowMs)`, `queue(capacity, rate)`, …); everything
// else (allow, peek, the clock's moves, several instances) is here. The answers a limiter kata
// expects and a clock the suite itself can hold come with it.
import { fixture, type Encoded, type FixtureRef } from './suite.ts';

/** A limiter's answer, as the rate-limiter contract spells it. */
export interface LimiterResult {
  allowed: boolean;
  remaining: number;
  resetAt: number;
  retryAt: number;
}

/** An allowed request's answer at `now`: retryAt is now. */
export const ok = (remaining: number, resetAt: number, now: number): LimiterResult => ({
  allowed: true,
  remaining,
  resetAt,
  retryAt: now,
});

/** A denied request's answer. */
export const no = (remaining: number, resetAt: number, retryAt: number): LimiterResult => ({
  allowed: false,
  remaining,
  resetAt,
  retryAt,
});

/** What a call that must throw a RangeError expects. */
export const THROWS = { throws: 'RangeError' };

/** A clock the suite holds, so the reference can answer inputs too long to work out by hand. */
export class HeldClock {
  time = 0;
  now(): number {
    return this.time;
  }
}

/** A deterministic draw from 0 .. n - 1 (MINSTD, exact in doubles), for generated inputs. */
export function draws(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 48271) % 2147483647;
    return Math.floor((state / 2147483647) * n);
  };
}

/** A step of a random sequence (a property case's draw); its answer is left to the reference. */
export type RandomStep =
  | { method: 'clock.set' | 'clock.advance'; ms: number }
  | { method: 'allow' | 'peek'; key: string; cost?: number | undefined };

/** Builds a case's calls in order, in LeetCode's encoding, with the instance each call goes to. */
export class CallScript {
  readonly methods: string[] = [];
  readonly args: unknown[][] = [];
  readonly expected: unknown[] = [];
  readonly targets: number[] = [];
  protected target = 0;
  private instances = 0;

  /** `className`: the class the learner writes; it takes the clock `clock` after its settings. */
  constructor(
    private readonly className: string,
    private readonly clock: FixtureRef = fixture('clock'),
  ) {}

  /** A new instance on the case's clock, built from `settings`; later calls go to it. */
  build(settings: unknown[], expected: unknown = null): this {
    this.target = this.instances++;
    return this.call(this.className, [...settings, this.clock], expected);
  }

  /** Sends the following calls to an earlier instance. */
  on(target: number): this {
    this.target = target;
    return this;
  }

  /** Adds calls made in a loop. */
  then(add: (s: this) => void): this {
    add(this);
    return this;
  }

  allow(key: string, expected: unknown, cost?: number): this {
    return this.call('allow', cost === undefined ? [key] : [key, cost], expected);
  }

  peek(key: string, expected: unknown, cost?: number): this {
    return this.call('peek', cost === undefined ? [key] : [key, cost], expected);
  }

  advance(ms: number): this {
    return this.call('clock.advance', [ms], null);
  }

  set(ms: number): this {
    return this.call('clock.set', [ms], null);
  }

  /** Random steps, each expecting whatever the reference answers (`null`). */
  steps(steps: readonly RandomStep[]): this {
    for (const step of steps) {
      if ('ms' in step) {
        if (step.method === 'clock.set') this.set(step.ms);
        else this.advance(step.ms);
      } else if (step.method === 'allow') this.allow(step.key, null, step.cost);
      else this.peek(step.key, null, step.cost);
    }
    return this;
  }

  /** Any call, to the current instance (or to a fixture, by a dotted name). */
  call(method: string, args: unknown[], expected: unknown): this {
    this.methods.push(method);
    this.args.push(args);
    this.expected.push(expected);
    this.targets.push(this.target);
    return this;
  }

  /** The encoding; `targets` only when more than one instance is involved. */
  done(): Encoded {
    const { methods, args, expected, targets } = this;
    return this.instances > 1 ? { methods, args, expected, targets } : { methods, args, expected };
  }
}

/** What `mixedTraffic` asks of the suite's reference: a limiter's allow and peek on one key. */
export interface ReferenceLimiter {
  allow(key: string): unknown;
  peek(key: string): unknown;
}

/**
 * Random traffic on limiters already built in `s`, one key each, answered by the references `refs`
 * (instance i of the script is refs[i]) on the held `clock`: until the script holds `calls` calls,
 * 15 % clock moves (mostly a few ms, some up to 2 s, a few of a minute or two), 10 % peeks and the
 * rest allows, on a limiter drawn at random.
 */
export function mixedTraffic(
  s: CallScript,
  refs: ReferenceLimiter[],
  clock: HeldClock,
  next: (n: number) => number,
  calls: number,
): void {
  while (s.methods.length < calls) {
    const roll = next(100);
    if (roll < 15) {
      const ms = roll < 10 ? next(10) : roll < 14 ? next(2000) : 60_000 + next(60_000);
      clock.time += ms;
      s.advance(ms);
      continue;
    }
    const b = next(refs.length);
    const ref = refs[b] as ReferenceLimiter;
    s.on(b);
    if (roll < 25) s.peek('user', ref.peek('user'));
    else s.allow('user', ref.allow('user'));
  }
}

/**
 * Key number j: `length` characters, `filler` repeated, then the digits of j (a filler without
 * digits keeps every key distinct), about a bearer token's length for the memory cases. Reading a
 * character makes V8 copy it into one flat string, as a key read off a request would be: padStart
 * alone shares most of it with the other keys, and a limiter that keeps every key would look far
 * smaller than it is.
 */
export function longKey(j: number, filler: string, length: number): string {
  const key = String(j).padStart(length, filler);
  key.charCodeAt(0);
  return key;
}
