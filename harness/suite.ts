// The shape of a problem's hidden suite. Suites live in solutions/<dir>/suite.ts and are data plus
// generators; the judge runs them without knowing which problem they belong to.
import type * as fc from 'fast-check';
import type { RedisAdmin } from './redis/admin.ts';

export type Tier = 'example' | 'core' | 'follow-up';

/** A class the suite drives: constructed with `new`, then called method by method. */
export type AnyClass = new (...args: never[]) => object;

/** A function the suite calls (a function problem: see `Suite.exports`). */
export type AnyFunction = (...args: never[]) => unknown;

/** An expected outcome that is an exception rather than a value (e.g. `{ throws: 'RangeError' }`). */
export interface Throws {
  throws: string;
}

/**
 * One call in LeetCode's encoding. A call whose method is the class name constructs a new
 * instance; `target` says which instance a call goes to (0 when a case drives one instance).
 */
export interface Call {
  method: string;
  args: unknown[];
  expected: unknown;
  target?: number;
}

/**
 * Produces a case's calls by passing each one to `emit`. It must give the same calls every time it is
 * called (the judge plays it again to show context), and it may pass one Call object over and over,
 * changed in place, to stay fast. `emit` throws to stop it early: do not catch around it.
 */
export type CallSource = (emit: (call: Call) => void) => void;

/** LeetCode's three parallel arrays, plus an optional instance index per call. */
export interface Encoded {
  methods: string[];
  args: unknown[][];
  expected: unknown[];
  targets?: number[];
}

/**
 * An object a case creates that is not the learner's: a fake clock, a spy, a scripted limiter. It is
 * built inside the learner's realm from `source`, the text of a self-contained function (no free
 * variables: it is evaluated on its own, once in the learner's realm and once beside the reference).
 * Called with `args`, that function returns `{ handle, control, status? }`:
 * - `handle` is what learner code receives where an argument is `fixture(name)`;
 * - `control` holds the methods a case calls as `name.method` (e.g. `clock.set`), with what they
 *   return compared like any call's answer (`null` for nothing);
 * - `status()`, when given, is shown on every row of the call table (the clock shows its time).
 */
export interface FixtureSpec {
  source: string;
  args?: unknown[];
  /**
   * A fixture that talks to a service outside the realm (`'redis'`: see harness/redis/facade.ts).
   * Its function is then called with a `post(command, args)` first, before `args`: the realm's one
   * way out, which queues a request of plain strings for the judge to carry to the service.
   */
  outbound?: 'redis';
  /**
   * The fixture is one API server's own connection: an instance constructed with it runs in a realm
   * of its own, from a fresh load of the learner's module (module-level state, globals, the realm's
   * built-ins), as on a separate machine; instances handed the same such fixture share that realm.
   * Such an instance may be handed no other fixture (see ServerRealms in judge/child).
   */
  server?: true;
}

/** An argument that stands for a fixture: the learner's code receives the fixture's handle. */
export interface FixtureRef {
  $fixture: string;
}

export function fixture(name: string): FixtureRef {
  return { $fixture: name };
}

export function isFixtureRef(value: unknown): value is FixtureRef {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { $fixture?: unknown }).$fixture === 'string'
  );
}

interface CaseBase {
  name: string;
  tier: Tier;
  /** The trap this case is built to catch; null only for examples. */
  trap: string | null;
  /**
   * Shown when the case fails: teaches, never hands over the answer. Required for hidden cases. A
   * plain text is for a wrong answer; a case that judges speed or memory says which failure each
   * text is for, so that a wrong answer never gets a speed hint, nor a timeout a correctness one.
   */
  hint?: string | CaseHints;
  /**
   * Traps this case cannot pass without (it uses what their cases check): when one of those fails
   * too, this case's failure is put down to it.
   */
  needs?: string[];
  /** Wall time the calls may take, measured inside the child; default 1000 ms. */
  timeLimitMs?: number;
  /** Memory the instances may still hold once the calls are done (after a full GC), in MB. */
  retainedLimitMb?: number;
  /**
   * Objects the case creates, by name, fresh for every run of its calls. A call whose method is
   * `name.method` goes to that fixture's control; an argument `fixture(name)` is its handle.
   */
  fixtures?: Record<string, FixtureSpec>;
  /**
   * Stricter than LeetCode on purpose: the bug this case catches (a plain object used as a map,
   * state kept outside the instances) gets past LeetCode's own tests. A failure says so.
   */
  beyondLeetCode?: true;
  /**
   * The learner's methods answer with promises (or any thenable): each call's answer is awaited
   * before the next call is made. Overrides the suite's `async` for this case. See `Suite.async`.
   */
  async?: boolean;
  /** Wall time an awaited call (or parallel step) may take to settle, in ms; overrides the suite's. */
  callDeadlineMs?: number;
}

/** A case's hints by the way it failed. */
export interface CaseHints {
  /** A wrong answer (or the wrong exception). */
  wrong?: string;
  /** Over the time limit. */
  slow?: string;
  /** Over the memory limit. */
  memory?: string;
}

/** A case's hint, whichever way it is written, as hints by failure. */
export function caseHints(hint: string | CaseHints | undefined): CaseHints {
  return typeof hint === 'string' ? { wrong: hint } : { ...hint };
}

/** A fixed case, written out call by call. */
export interface FixedCase extends CaseBase, Encoded {}

/** A generated case: calls are produced lazily so that a million calls never sit in memory. */
export interface GeneratedCase extends CaseBase {
  generate: CallSource;
  /** A one-line description of the input, for reports (the input itself may be huge). */
  describe: string;
}

/** A property-based case: random call sequences, the learner's class against the reference. */
export interface PropertyCase extends CaseBase {
  property: {
    /** Call sequences; `expected` is ignored, the reference decides it. */
    calls: fc.Arbitrary<Encoded>;
    numRuns?: number;
  };
}

/**
 * A case played by a script instead of a list of calls: for a class judged against a real service
 * (Redis), where the right answer depends on when each call was made (by the service's clock, which
 * the judge cannot set), and where steps between calls wait real time, inject a fault, or inspect
 * the service. The script drives the learner's class through `play` (see Play); each step is a row
 * of the call table, and the first step that fails ends the case. Async only; see drive-scenario.ts.
 */
export interface ScenarioCase extends CaseBase {
  scenario: (play: Play) => Promise<void>;
  /** A one-line description of what the script does, for reports. */
  describe: string;
  /** Wall time the whole script may take, waits included (default 20 000 ms). */
  wallLimitMs?: number;
}

/**
 * An oracle: given the answer the learner's code gave (and so when it must have decided), what it
 * should have answered. Written for services whose clock the judge reads but cannot set.
 */
export type Oracle = (answer: unknown) => unknown | Promise<unknown>;

/** A scenario's handle on the case. Each method that plays or checks something adds a row. */
export interface Play {
  /** Constructs an instance of the learner's class; returns its index, the `target` of its calls. */
  construct(args: unknown[], expected?: null | Throws): Promise<number>;
  /**
   * Calls a method of an instance and awaits its answer, which must equal `expected` (a value or
   * `{ throws }`), or, when `expected` is an Oracle (a function), what the oracle says of the answer. Returns the answer. A wrong answer, an
   * unexpected exception, or an answer that does not settle within the call deadline ends the case.
   */
  call(target: number, method: string, args: unknown[], expected: unknown): Promise<unknown>;
  /**
   * Fires calls at once, as `parallel()` does, and counts the answers matching `where`; `between`
   * may be worked out once they have settled (a band that depends on how long they took). Returns
   * the answers.
   */
  parallel(
    calls: ParallelCall[],
    where: unknown,
    between: [number, number] | (() => Promise<[number, number]>),
  ): Promise<unknown[]>;
  /** A row the script checked itself (a key's TTL, the keys left): a failing one ends the case. */
  check(row: { what: string; expected: string; actual: string; ok: boolean }): void;
  /** A row that says what the script did between calls (a wait, a fault); it cannot fail. */
  note(what: string, detail?: string): void;
  /** Skews the clock learner code reads (`Date.now()`, `new Date()`) by `ms`, until the case ends. */
  skewClock(ms: number): void;
  /** The case's Redis, as the judge sees it; throws when the problem has none. */
  readonly redis: RedisAdmin;
}

export type Case = FixedCase | GeneratedCase | PropertyCase | ScenarioCase;

export interface Suite {
  /** The reference implementation, used by property cases: a class, or a function problem's function. */
  reference: AnyClass | AnyFunction;
  /**
   * What the learner's solution exports: a class (the default), or a function. In a function
   * problem every call of a case is a call of that function (its `method` is the function's name,
   * as a constructor's is the class's): the arguments are rebuilt afresh for each call, and its
   * answer is compared with `expected`. There are no instances: see `functionCalls`.
   */
  exports?: 'class' | 'function';
  /** How a returned value is compared with the expected one; strict deep equality by default. */
  equals?: (expected: unknown, actual: unknown) => boolean;
  /**
   * For answers that are objects: the absolute tolerance of a numeric field, by field name (e.g.
   * `{ startAt: 1e-6 }`). Other fields compare exactly. A mismatch names the fields that differ.
   */
  fieldTolerance?: Record<string, number>;
  /**
   * The trap a failure is put down to when the case passes on a freshly loaded module: the
   * solution kept state outside its instances, and earlier cases left some behind.
   */
  sharedStateTrap?: string;
  /**
   * The trap a failure is put down to when the learner's code read the real time (`Date.now()`,
   * `new Date()`) during the case: the design katas hand over a clock to read instead.
   */
  realTimeTrap?: string;
  /**
   * Every case is async unless it says `async: false`: the learner's methods may return promises,
   * and the judge awaits each call's answer (inside the learner's realm) before the next call. An
   * answer that rejects is a runtime error, as a throw is; one that has not settled within the call
   * deadline makes the case Time Limit Exceeded, naming the call. The time limit still counts CPU
   * time, so waiting costs none of it. Async cases are short (their calls are listed before they are
   * played: at most MAX_ASYNC_CALLS), may hold parallel steps, and cannot be property cases.
   * Constructors and fixture calls stay synchronous.
   */
  async?: boolean;
  /** Wall time each awaited call (or parallel step) may take to settle, in ms; default 2000. */
  callDeadlineMs?: number;
  cases: Case[];
}

/**
 * The `method` that marks a parallel step: a Call whose `args` are the calls to fire together
 * (ParallelCall[]) and whose `expected` says what to count in their answers (Aggregate). Build it
 * with `parallel()`; in LeetCode's arrays it is `methods: [..., PARALLEL]`, `args: [..., calls]`,
 * `expected: [..., { where, between }]`. Only async cases may hold one.
 */
export const PARALLEL = '(parallel)';

/** One call of a parallel step: a method of an instance the case constructed before. */
export interface ParallelCall {
  method: string;
  args: unknown[];
  /** The instance it goes to (0 by default); a step usually spreads over several. */
  target?: number;
}

/**
 * What a parallel step checks. Its answers are not compared one by one (their order is the race's):
 * the answers that match `where`, as an answer matches an expected value (`{ allowed: true }`
 * counts those whose `allowed` is true; `null` counts every answer), must number from
 * `between[0]` to `between[1]`, both included. A call that throws or rejects is a runtime error.
 */
export interface Aggregate {
  where: unknown;
  between: [number, number];
}

/**
 * A step that fires `calls` at once: each method is called (its synchronous part runs) before any
 * answer is awaited, so their promises race; then all are awaited within one call deadline. It is
 * one row of the call table, with the count expected and the count found.
 */
export function parallel(calls: ParallelCall[], where: unknown, between: [number, number]): Call {
  const expected: Aggregate = { where, between };
  return { method: PARALLEL, args: calls, expected };
}

export function isParallel(call: Call): boolean {
  return call.method === PARALLEL;
}

/** Whether a case's methods are awaited: its own `async`, else its suite's. */
export function isAsyncCase(suite: Suite, c: Case): boolean {
  return c.async ?? suite.async ?? false;
}

export function defineSuite(suite: Suite): Suite {
  return suite;
}

export function isFixed(c: Case): c is FixedCase {
  return 'methods' in c;
}

export function isGenerated(c: Case): c is GeneratedCase {
  return 'generate' in c;
}

export function isProperty(c: Case): c is PropertyCase {
  return 'property' in c;
}

export function isScenario(c: Case): c is ScenarioCase {
  return 'scenario' in c;
}

export function isThrows(value: unknown): value is Throws {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { throws?: unknown }).throws === 'string'
  );
}

/** Turns LeetCode's parallel arrays into calls. */
export function decode(encoded: Encoded): Call[] {
  return encoded.methods.map((method, i) => ({
    method,
    args: encoded.args[i] ?? [],
    expected: encoded.expected[i],
    target: encoded.targets?.[i] ?? 0,
  }));
}

/** A source that plays a list of calls. */
export function fromCalls(calls: Call[]): CallSource {
  return (emit) => {
    for (const call of calls) emit(call);
  };
}

/**
 * A function problem's case: each call calls the function `name` with `args` and expects `expected`.
 * `functionCalls('f', [{ args: [[1, 2], 1], expected: [1, 2] }])` is one call of `f([1, 2], 1)`.
 */
export function functionCalls(
  name: string,
  calls: readonly { args: unknown[]; expected: unknown }[],
): Encoded {
  return {
    methods: calls.map(() => name),
    args: calls.map((call) => call.args),
    expected: calls.map((call) => call.expected),
  };
}

/**
 * A comparison within an absolute tolerance, for answers that are floating-point numbers, alone or
 * in lists (at any depth): -0 equals 0 there, and NaN nothing. Everything else is compared exactly.
 */
export function withinTolerance(
  tolerance: number,
): (expected: unknown, actual: unknown) => boolean {
  const equals = (expected: unknown, actual: unknown): boolean => {
    if (typeof expected === 'number' && typeof actual === 'number') {
      return expected === actual || Math.abs(expected - actual) <= tolerance;
    }
    if (Array.isArray(expected) && Array.isArray(actual)) {
      if (expected.length !== actual.length) return false;
      for (let i = 0; i < expected.length; i++) {
        if (!equals(expected[i], actual[i])) return false;
      }
      return true;
    }
    return Object.is(expected, actual);
  };
  return equals;
}
