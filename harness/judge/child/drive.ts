// Plays a sequence of calls against a class and records how each one went. This is the only place
// learner methods are called, so it is where their exceptions are caught and classified.
import { formatArgs, formatValue } from '../format-value.ts';
import { NOT_IMPLEMENTED_PREFIX, type CallRecord } from '../outcome.ts';
import { isThrows, type AnyClass, type Call, type CallSource } from '../../suite.ts';

export type Equals = (expected: unknown, actual: unknown) => boolean;

export interface DriveOptions {
  className: string;
  equals: Equals;
  /** Keep every record (short cases) instead of a window around the first divergence. */
  keepAll: boolean;
  /** Stop a few calls after the first divergence (long generated cases). */
  stopAfterDivergence: boolean;
}

export interface Thrown {
  error: unknown;
  notImplemented: boolean;
}

export interface DriveResult {
  records: CallRecord[];
  totalCalls: number;
  divergedAt?: number;
  /** Set when a call threw where no exception was expected. */
  thrown?: Thrown;
  /** Kept so the caller can measure what they retain. */
  instances: object[];
}

/** Calls shown on each side of the first divergence of a long case. */
export const CONTEXT = 3;

export function deepEquals(expected: unknown, actual: unknown): boolean {
  // === makes 0 equal -0 (JSON cannot tell them apart); Object.is makes NaN equal NaN.
  if (expected === actual || Object.is(expected, actual)) return true;
  // LeetCode writes null for a method that returns nothing.
  if (expected === null && actual === undefined) return true;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    return (
      expected.length === actual.length && expected.every((item, i) => deepEquals(item, actual[i]))
    );
  }
  if (isPlainObject(expected) && isPlainObject(actual)) {
    const keys = Object.keys(expected);
    return (
      keys.length === Object.keys(actual).length &&
      keys.every((key) => Object.hasOwn(actual, key) && deepEquals(expected[key], actual[key]))
    );
  }
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    [Object.prototype, null].includes(Object.getPrototypeOf(value))
  );
}

export function isNotImplemented(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith(NOT_IMPLEMENTED_PREFIX);
}

function invoke(call: Call, cls: AnyClass, className: string, instances: object[]): unknown {
  const target = call.target ?? 0;
  if (call.method === className) {
    const instance = new (cls as new (...args: unknown[]) => object)(...call.args);
    instances[target] = instance;
    return null;
  }
  const instance = instances[target];
  if (instance === undefined) {
    throw new Error(`the suite called ${call.method} before constructing ${className}`);
  }
  const method = (instance as Record<string, unknown>)[call.method];
  if (typeof method !== 'function') {
    throw new TypeError(`${className} has no method ${call.method}()`);
  }
  return (method as (...args: unknown[]) => unknown).apply(instance, call.args);
}

interface RawRecord {
  index: number;
  call: Call;
  actual: unknown;
  threw: unknown;
  didThrow: boolean;
  ok: boolean;
  /** Played again for context: it passed, so what it returned is shown as what was expected. */
  replayed?: boolean;
}

/** Formatting is the costly part of a call, so only the records that will be shown are formatted. */
function format(raw: RawRecord, className: string): CallRecord {
  const { call } = raw;
  const expected = isThrows(call.expected)
    ? `throws ${call.expected.throws}`
    : formatValue(call.method === className ? null : call.expected);
  const actual = raw.didThrow ? `throws ${formatValue(raw.threw)}` : formatValue(raw.actual);
  return {
    index: raw.index,
    method: call.method,
    args: formatArgs(call.args),
    expected,
    actual: raw.replayed ? expected : actual,
    ok: raw.ok,
  };
}

/** Thrown through a case's generator to stop it early; never escapes drive(). */
const STOP = Symbol('stop');

/**
 * Plays the calls against a fresh set of instances. The source pushes calls one by one (cheaper than
 * a generator at millions of calls), and nothing is stored per call on the hot path: when a long case
 * diverges, the source is played again to show the calls before it (they went right, so what they
 * returned is what was expected).
 */
export function drive(source: CallSource, cls: AnyClass, options: DriveOptions): DriveResult {
  const instances: object[] = [];
  const kept: RawRecord[] = [];
  let index = 0;
  let divergedAt: number | undefined;
  let thrown: Thrown | undefined;

  const emit = (call: Call): void => {
    let actual: unknown;
    let threw: unknown;
    let didThrow = false;
    try {
      actual = invoke(call, cls, options.className, instances);
    } catch (error) {
      didThrow = true;
      threw = error;
    }
    const expectsThrow = isThrows(call.expected);
    const ok = expectsThrow
      ? didThrow &&
        threw instanceof Error &&
        threw.name === (call.expected as { throws: string }).throws
      : !didThrow && options.equals(call.expected, actual);
    if (!ok && divergedAt === undefined) {
      divergedAt = index;
      if (!options.keepAll) kept.push(...callsBefore(source, index));
    }
    if (options.keepAll || divergedAt !== undefined) {
      // A source may reuse one Call object, so keep a copy.
      kept.push({ index, call: { ...call, args: [...call.args] }, actual, threw, didThrow, ok });
    }
    index++;
    if (didThrow && !expectsThrow) {
      thrown = { error: threw, notImplemented: isNotImplemented(threw) };
      throw STOP;
    }
    if (options.stopAfterDivergence && divergedAt !== undefined && index - divergedAt > CONTEXT)
      throw STOP;
  };
  playUntilStopped(source, emit);
  const records = kept.map((raw) => format(raw, options.className));
  return { records, totalCalls: index, divergedAt, thrown, instances };
}

function playUntilStopped(source: CallSource, emit: (call: Call) => void): void {
  try {
    source(emit);
  } catch (error) {
    if (error !== STOP) throw error;
  }
}

/** The CONTEXT calls before `index`, played again; they passed, so they returned what was expected. */
function callsBefore(source: CallSource, index: number): RawRecord[] {
  const records: RawRecord[] = [];
  let i = 0;
  playUntilStopped(source, (call) => {
    if (i >= index) throw STOP;
    if (i >= index - CONTEXT) {
      const copy = { ...call, args: [...call.args] };
      records.push({
        index: i,
        call: copy,
        actual: undefined,
        threw: undefined,
        didThrow: false,
        ok: true,
        replayed: true,
      });
    }
    i++;
  });
  return records;
}
