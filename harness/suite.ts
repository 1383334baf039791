// The shape of a problem's hidden suite. Suites live in solutions/<dir>/suite.ts and are data plus
// generators; the judge runs them without knowing which problem they belong to.
import type * as fc from 'fast-check';

export type Tier = 'example' | 'core' | 'follow-up';

/** A class the suite drives: constructed with `new`, then called method by method. */
export type AnyClass = new (...args: never[]) => object;

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

export type Case = FixedCase | GeneratedCase | PropertyCase;

export interface Suite {
  /** The reference implementation, used by property cases. */
  reference: AnyClass;
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
  cases: Case[];
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

/** A comparison within an absolute tolerance, for answers that are floating-point numbers. */
export function withinTolerance(
  tolerance: number,
): (expected: unknown, actual: unknown) => boolean {
  return (expected, actual) =>
    typeof expected === 'number' && typeof actual === 'number'
      ? Math.abs(expected - actual) <= tolerance
      : Object.is(expected, actual);
}
