// The call builder of the suites whose class is built on a fake clock (every rate limiter kata, and
// the gateway in front of them): a case's calls written step by step, in LeetCode's encoding, with
// the instance each call goes to. A suite names its class once and adds the one method that builds
// it with its own settings (`limiter(limit, windowMs)`, `queue(capacity, rate)`, …); everything
// else (allow, peek, the clock's moves, several instances) is here. The answers a limiter kata
// expects and a clock the suite itself can hold come with it.
import { clockStart } from './fixtures.ts';
import {
  fixture,
  isFixtureRef,
  isThrows,
  type Call,
  type Encoded,
  type FixtureRef,
  type FixtureSpec,
  type PictureReader,
  type Span,
} from './suite.ts';

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

/**
 * A step of a random sequence (a property case's draw): a move of the clock, or a call on a key
 * (allow, peek, a queue's submit), with a cost when given. Its answer is left to the reference.
 */
export type RandomStep =
  | { method: 'clock.set' | 'clock.advance'; ms: number }
  | { method: string; key: string; cost?: number | undefined };

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
      } else {
        const { method, key, cost } = step;
        this.call(method, cost === undefined ? [key] : [key, cost], null);
      }
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

/** A limiter's settings, as its constructor was given them, without the clock. */
export type Settings = readonly unknown[];

/** A level kept for one key of one limiter, as the reference's answers make it. */
export interface LaneLevel {
  /** An allowed request took `cost` at time `at`, answered `answer`. */
  took(at: number, cost: number, answer: Record<string, unknown>): void;
  at(t: number): number;
}

/** What a limiter kata's picture shows beyond its calls (see limiterPicture). */
export interface LimiterPicture {
  /**
   * The windows at time `at`; `taken(from, to)` is what the allowed requests of the wrong call's
   * key took in [from, to), for a window to say how full it is.
   */
  windows?(settings: Settings, at: number, taken: (from: number, to: number) => number): Span[];
  level?: {
    name: string;
    capacity(settings: Settings): number;
    start(settings: Settings): LaneLevel;
  };
  /**
   * Times are shown from the first request's, under this name (`T`): for a service's clock, whose
   * times are long and mean nothing in themselves.
   */
  timesFrom?: string;
  /** The method that takes from the limiter (`allow` unless said: a queue's `submit`). */
  takes?: string;
  /** The row of an allowed request (`allowed` unless said: a queue's `queued`). */
  allowedMark?: string;
}

/**
 * The picture of a limiter kata built on a fake clock (the suite's `picture`): each allow marked
 * allowed or refused as the reference answers it, each peek, on the lane of one instance and one
 * key, with the windows and level the suite describes.
 */
export function limiterPicture(
  spec: LimiterPicture,
): (fixtures: Record<string, FixtureSpec>) => PictureReader {
  return (fixtures) => {
    let time = clockStart(fixtures.clock) ?? 0;
    const taking = spec.takes ?? 'allow';
    const settings = new Map<number, Settings>();
    const levels = new Map<string, LaneLevel>();
    const takes = new Map<string, { at: number; cost: number }[]>();
    const settingsOf = (lane: string): Settings => settings.get(Number(lane.split(':')[0])) ?? [];
    // A lane's level starts with its first allowed request, or when first asked once the limiter
    // is built; before that there is none.
    const levelOf = (lane: string): LaneLevel | undefined => {
      if (spec.level === undefined || !settings.has(Number(lane.split(':')[0]))) return undefined;
      let level = levels.get(lane);
      if (level === undefined) levels.set(lane, (level = spec.level.start(settingsOf(lane))));
      return level;
    };
    let first: number | undefined;
    /** The latest answer's resetAt by lane: the picture reaches it, to show the level come back. */
    const resetAt = new Map<string, unknown>();
    const reader: PictureReader = {
      until: (lane) => {
        const at = resetAt.get(lane);
        return spec.level !== undefined && typeof at === 'number' ? at : undefined;
      },
      origin: () =>
        spec.timesFrom !== undefined && first !== undefined
          ? { at: first, name: spec.timesFrom }
          : undefined,
      read(call: Call) {
        const target = call.target ?? 0;
        const amount = call.args[0] as number;
        if (call.method === 'clock.set') time = amount;
        else if (call.method === 'clock.advance') time += amount;
        else if (call.method === taking || call.method === 'peek') {
          const lane = `${target}:${String(call.args[0])}`;
          const cost = (call.args[1] as number | undefined) ?? 1;
          first ??= time;
          if (isThrows(call.expected)) return { at: time, lane };
          const allowed = (call.expected as { allowed?: unknown } | null)?.allowed === true;
          resetAt.set(lane, (call.expected as { resetAt?: unknown } | null)?.resetAt);
          if (call.method === 'peek') return { at: time, mark: 'peek', lane };
          if (allowed) {
            levelOf(lane)?.took(time, cost, call.expected as Record<string, unknown>);
            const list = takes.get(lane) ?? [];
            list.push({ at: time, cost });
            takes.set(lane, list);
          }
          return { at: time, mark: allowed ? (spec.allowedMark ?? 'allowed') : 'refused', lane };
        } else if (!call.method.includes('.')) {
          settings.set(
            target,
            call.args.filter((arg) => !isFixtureRef(arg)),
          );
        }
        return { at: time };
      },
    };
    if (spec.windows !== undefined) {
      const windows = spec.windows;
      reader.windows = (at, lane) =>
        windows(settingsOf(lane), at, (from, to) =>
          (takes.get(lane) ?? [])
            .filter((t) => t.at >= from && t.at < to)
            .reduce((sum, t) => sum + t.cost, 0),
        );
    }
    if (spec.level !== undefined) {
      const { name, capacity } = spec.level;
      reader.level = {
        name,
        capacity: (lane) => capacity(settingsOf(lane)),
        at: (t, lane) => levelOf(lane)?.at(t) ?? NaN,
      };
    }
    return reader;
  };
}
