// Fixtures any suite may use. Each is the source of a self-contained function: the judge evaluates it
// inside the learner's realm, so what learner code receives holds nothing of the judge.
//
// A fixture's arguments may name fixtures listed before it in the case (`fixture('clock')`): it
// receives their handles. So a case can put a limiter on its clock, and a spy around that limiter:
//
//   fixtures: {
//     clock: fakeClock(0),
//     perMinute: windowLimiter(fixture('clock'), 100, 60_000),
//     minute: spyLimiter('minute', fixture('perMinute')),
//   }
import type { FixtureRef, FixtureSpec } from './suite.ts';

/**
 * A fake clock: the learner's code gets `{ now(): number }` (milliseconds); the case moves it with
 * `clock.set(ms)` and `clock.advance(ms)`, backwards too. Every row of the call table shows its time.
 */
export function fakeClock(startMs = 0): FixtureSpec {
  return { args: [startMs], source: String(makeClock) };
}

/** The clock itself; it runs from its source text, so it may use nothing outside itself. */
export function makeClock(start: number): {
  handle: { now(): number };
  control: { set(ms: number): null; advance(ms: number): null };
  status: () => string;
} {
  let time = start;
  const handle = Object.freeze({ now: () => time });
  const control = {
    set(ms: number) {
      time = ms;
      return null;
    },
    advance(ms: number) {
      time += ms;
      return null;
    },
  };
  return { handle, control, status: () => `t=${time}` };
}

/** Where a fake clock starts, when `spec` is one (see fakeClock). */
export function clockStart(spec: FixtureSpec | undefined): number | undefined {
  if (spec === undefined || spec.source !== String(makeClock)) return undefined;
  return typeof spec.args?.[0] === 'number' ? spec.args[0] : 0;
}

/** What a limiter fixture answers: the shape of problems/rate-limiter-contract.md. */
export interface LimiterAnswer {
  allowed: boolean;
  remaining: number;
  resetAt: number;
  retryAt: number;
}

/** What a limiter fixture hands the learner's code. */
export interface LimiterHandle {
  allow(key: string, cost?: number): LimiterAnswer;
  peek(key: string, cost?: number): LimiterAnswer;
}

/**
 * A working limiter for code that is built on limiters (a gateway, a composite): `limit` units per
 * key in each window `[k·W, (k+1)·W)` of the given clock (a fixture), kept to the whole rate-limiter
 * contract (problems/rate-limiter-contract.md): a literal `remaining`, `resetAt` and `retryAt` as
 * defined there, one high-water mark, `RangeError` for a bad setting or cost. It has no control and
 * says nothing on the call table: wrap it in a `spyLimiter` to see what it was asked.
 */
export function windowLimiter(clock: FixtureRef, limit: number, windowMs: number): FixtureSpec {
  return { args: [clock, limit, windowMs], source: String(makeWindowLimiter) };
}

/** The window limiter itself; self-contained, like every fixture. */
export function makeWindowLimiter(
  clock: { now(): number },
  limit: number,
  windowMs: number,
): { handle: LimiterHandle; control: Record<string, never> } {
  if (!Number.isInteger(limit) || limit <= 0) {
    throw new RangeError(`limit must be a positive integer, got ${limit}`);
  }
  if (!Number.isInteger(windowMs) || windowMs <= 0) {
    throw new RangeError(`windowMs must be a positive integer, got ${windowMs}`);
  }
  let mark = -Infinity;
  let windowStart = -Infinity;
  // The counts of the current window only: a new window starts with an empty map.
  let used = new Map<string, number>();
  const decide = (key: string, cost: number, take: boolean): LimiterAnswer => {
    if (!Number.isInteger(cost) || cost <= 0) {
      throw new RangeError(`cost must be a positive integer, got ${cost}`);
    }
    const now = Math.max(mark, clock.now());
    mark = now;
    const start = now - (((now % windowMs) + windowMs) % windowMs);
    if (start !== windowStart) {
      windowStart = start;
      used = new Map();
    }
    const end = start + windowMs;
    const before = used.get(key) ?? 0;
    const allowed = before + cost <= limit;
    const after = allowed ? before + cost : before;
    if (allowed && take) used.set(key, after);
    return {
      allowed,
      remaining: limit - after,
      resetAt: after > 0 ? end : now,
      retryAt: allowed ? now : cost <= limit ? end : Infinity,
    };
  };
  const handle = Object.freeze({
    allow: (key: string, cost = 1) => decide(key, cost, true),
    peek: (key: string, cost = 1) => decide(key, cost, false),
  });
  return { handle, control: {} };
}

/** One call a spy saw: the arguments as given (no `cost` when it was left out) and the answer. */
export interface SpyEntry {
  method: 'allow' | 'peek';
  key: string;
  cost?: number;
  /** What the limiter answered, or 'threw'. */
  allowed: boolean | 'threw';
}

/**
 * A spy around a limiter fixture: it passes every `allow` and `peek` on as it was made (a cost left
 * out stays left out) and records it. Its control reads the record:
 * - `name.charges()`: the `allow` calls since the last `charges()`, as `{ key, cost, allowed }`
 *   (no `cost` when the call left it out);
 * - `name.calls()`: every call, `peek` too, since the last `calls()`, each a {@link SpyEntry}.
 * Each row of the call table shows `label:N`, the units it has charged so far (the costs of the
 * `allow` calls its limiter allowed), so a failing case shows what was consumed, call by call.
 */
export function spyLimiter(label: string, limiter: FixtureRef): FixtureSpec {
  return { args: [label, limiter], source: String(makeSpyLimiter) };
}

/** The spy itself; self-contained, like every fixture. */
export function makeSpyLimiter(
  label: string,
  inner: LimiterHandle,
): {
  handle: LimiterHandle;
  control: { charges(): Omit<SpyEntry, 'method'>[]; calls(): SpyEntry[] };
  status: () => string;
} {
  const log: SpyEntry[] = [];
  let chargesRead = 0;
  let callsRead = 0;
  let charged = 0;
  const pass = (method: 'allow' | 'peek', args: unknown[]): LimiterAnswer => {
    const key = args[0] as string;
    const cost = args[1] as number | undefined;
    // A cost left out (or undefined) is no field at all: it reads the same once copied as text.
    const entry: SpyEntry =
      cost === undefined
        ? { method, key, allowed: 'threw' }
        : { method, key, cost, allowed: 'threw' };
    log.push(entry);
    const answer = (inner[method] as (...a: unknown[]) => LimiterAnswer)(...args);
    entry.allowed = answer.allowed;
    if (method === 'allow' && answer.allowed) charged += cost === undefined ? 1 : Number(cost);
    return answer;
  };
  const handle = Object.freeze({
    allow: (...args: unknown[]) => pass('allow', args),
    peek: (...args: unknown[]) => pass('peek', args),
  }) as LimiterHandle;
  const copy = (entry: SpyEntry): SpyEntry => ({ ...entry });
  const control = {
    charges() {
      const since = log.slice(chargesRead).filter((entry) => entry.method === 'allow');
      chargesRead = log.length;
      return since.map(({ method: _, ...rest }) => rest);
    },
    calls() {
      const since = log.slice(callsRead);
      callsRead = log.length;
      return since.map(copy);
    },
  };
  return { handle, control, status: () => `${label}:${charged}` };
}

/**
 * A limiter that answers whatever the case last told it, to reach answers a working limiter gives
 * rarely or never (a `resetAt` of now, a `retryAt` of `Infinity`, a negative `remaining` from a
 * faulty store). `name.answer({ allowed, remaining, resetAt, retryAt })` sets the answer every
 * later `allow` and `peek` gets (each a fresh copy); it checks no cost and keeps no state.
 */
export function scriptedLimiter(answer: LimiterAnswer): FixtureSpec {
  return { args: [answer], source: String(makeScriptedLimiter) };
}

/** The scripted limiter itself; self-contained, like every fixture. */
export function makeScriptedLimiter(first: LimiterAnswer): {
  handle: LimiterHandle;
  control: { answer(next: LimiterAnswer): null };
} {
  let current = { ...first };
  const give = (): LimiterAnswer => ({
    allowed: current.allowed,
    remaining: current.remaining,
    resetAt: current.resetAt,
    retryAt: current.retryAt,
  });
  const handle = Object.freeze({ allow: give, peek: give });
  const control = {
    answer(next: LimiterAnswer) {
      current = { ...next };
      return null;
    },
  };
  return { handle, control };
}
