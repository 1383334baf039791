// Plays a sequence of calls against a class and records how each one went. This is the only place
// learner methods are called, so it is where their exceptions are caught and classified.
import { CUT, formatArgs, formatValue, SHOWN_ITEMS } from '../format-value.ts';
import { NOT_IMPLEMENTED_PREFIX, type CallRecord } from '../outcome.ts';
import { isThrows, type Call, type CallSource, type FixtureSpec } from '../../suite.ts';
import type { LearnerError, Port, Reply } from './port.ts';

export type Equals = ((expected: unknown, actual: unknown) => boolean) & {
  /** Set on a suite's own comparison: it may look at every field of an answer. */
  custom?: boolean;
};

export interface DriveOptions {
  className: string;
  equals: Equals;
  /** Keep every record (short cases) instead of a window around the first divergence. */
  keepAll: boolean;
  /** Stop a few calls after the first divergence (long generated cases). */
  stopAfterDivergence: boolean;
  /** The case's fixtures, made afresh before the first call. */
  fixtures?: Record<string, FixtureSpec>;
  /** Per-field tolerance, to name the fields that differ. */
  tolerance?: Record<string, number>;
}

export interface Thrown {
  error: LearnerError;
  notImplemented: boolean;
}

export interface DriveResult {
  records: CallRecord[];
  totalCalls: number;
  divergedAt?: number;
  /** What the call at divergedAt answered or threw, as it came back (for diagnosis). */
  diverged?: { actual: unknown; threw?: LearnerError };
  /** Set when a call threw where no exception was expected. */
  thrown?: Thrown;
}

/** Calls shown on each side of the first divergence of a long case. */
export const CONTEXT = 3;

export function deepEquals(expected: unknown, actual: unknown): boolean {
  // === makes 0 equal -0 (JSON cannot tell them apart); Object.is makes NaN equal NaN.
  if (expected === actual || Object.is(expected, actual)) return true;
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

/**
 * How an answer is compared unless a suite says otherwise. LeetCode writes null for a method that
 * returns nothing, and ignores whatever such a method returns. An expected object is compared field
 * by field on its own fields (a learner's extra fields do no harm), numeric fields within the
 * suite's tolerance for that field.
 */
export function answerEquals(tolerance: Record<string, number> = {}): Equals {
  return (expected, actual) => {
    if (expected === actual || expected === null) return true;
    if (isPlainObject(expected) && isPlainObject(actual)) {
      return fieldsMatch(expected, actual, tolerance);
    }
    return deepEquals(expected, actual);
  };
}

/** Whether one expected field is matched (within its tolerance, if it has one). */
function fieldMatches(want: unknown, got: unknown, within: number | undefined): boolean {
  if (within !== undefined && typeof want === 'number' && typeof got === 'number') {
    return Object.is(want, got) || Math.abs(want - got) <= within;
  }
  return deepEquals(want, got);
}

/** differingFields(...).length === 0, without allocating: this runs on every call of a case. */
function fieldsMatch(
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
  tolerance: Record<string, number>,
): boolean {
  for (const key in expected) {
    const want = expected[key];
    const got = actual[key];
    if (want === got && got !== undefined) continue;
    if (!Object.hasOwn(actual, key) || !fieldMatches(want, got, tolerance[key])) return false;
  }
  return true;
}

/** The fields of an expected object that the actual one gets wrong (or lacks). */
export function differingFields(
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
  tolerance: Record<string, number> = {},
): string[] {
  return Object.keys(expected).filter(
    (key) =>
      !Object.hasOwn(actual, key) || !fieldMatches(expected[key], actual[key], tolerance[key]),
  );
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function isNotImplemented(error: LearnerError): boolean {
  return error.isError && error.message.startsWith(NOT_IMPLEMENTED_PREFIX);
}

/**
 * Sends one call where it belongs: the constructor, a fixture's control, or an instance. In a
 * function problem every call is named as the export, so goes to `construct`, which then calls it.
 */
export function invoke(
  call: Call,
  port: Port,
  className: string,
  fixtures = true,
  fields?: readonly string[],
): Reply {
  const target = call.target ?? 0;
  if (call.method === className) return port.construct(target, call.args);
  if (fields !== undefined && port.callExpecting) {
    return port.callExpecting(target, call.method, call.args, fields);
  }
  const dot = fixtures ? call.method.indexOf('.') : -1;
  if (dot > 0) {
    const name = call.method.slice(0, dot);
    if (port.hasFixture(name)) return port.fixtureCall(name, call.method.slice(dot + 1), call.args);
  }
  return port.call(target, call.method, call.args);
}

export interface RawRecord {
  index: number;
  call: Call;
  actual: unknown;
  threw: LearnerError | undefined;
  didThrow: boolean;
  ok: boolean;
  /** What the fixtures said after the call (the clock's time). */
  note?: string;
  /** Played again for context: it passed, so what it returned is shown as what was expected. */
  replayed?: boolean;
}

/** Formatting is the costly part of a call, so only the records that will be shown are formatted. */
export function format(
  raw: RawRecord,
  className: string,
  tolerance: Record<string, number>,
): CallRecord {
  const { call } = raw;
  const expected = isThrows(call.expected)
    ? `throws ${call.expected.throws}`
    : // A constructor expects nothing; a function problem's call (named as its export) expects an answer.
      formatValue(call.method === className ? (call.expected ?? null) : call.expected);
  const actual = raw.didThrow
    ? `throws ${raw.threw?.isError ? `${raw.threw.name}: ${raw.threw.message}` : raw.threw?.message}`
    : formatValue(raw.actual);
  const record: CallRecord = {
    index: raw.index,
    method: call.method,
    args: formatArgs(call.args),
    expected,
    actual: raw.replayed ? expected : actual,
    ok: raw.ok,
  };
  if (raw.note) record.note = raw.note;
  // Instance 0 is every call's target unless a case drives several: only others are marked.
  if (call.target !== undefined && call.target !== 0) record.target = call.target;
  const cut = record.expected.endsWith(CUT) || record.actual.endsWith(CUT);
  const lists = Array.isArray(call.expected) && Array.isArray(raw.actual);
  if (!raw.ok && !raw.didThrow && lists && (cut || longList(call.expected, raw.actual))) {
    // A long list (a function problem's answer) shown in part, both alike there: where it differs.
    record.differences = listDifference(call.expected as unknown[], raw.actual as unknown[]);
  }
  if (!raw.ok && !raw.didThrow && isPlainObject(call.expected) && isPlainObject(raw.actual)) {
    const fields = differingFields(call.expected, raw.actual, tolerance);
    record.fields = fields;
    if (record.expected.endsWith(CUT) || record.actual.endsWith(CUT)) {
      const expected = call.expected;
      const actual = raw.actual;
      record.differences = fields
        .flatMap((field) => leafDifferences(field, expected[field], actual, field))
        .slice(0, MAX_DIFFERENCES);
    }
  }
  return record;
}

/** Whether formatValue shows only the start of either list. */
const longList = (expected: unknown, actual: unknown): boolean =>
  (expected as unknown[]).length > SHOWN_ITEMS || (actual as unknown[]).length > SHOWN_ITEMS;

/** Where two lists first differ: their lengths, or the first item that is not the same. */
function listDifference(
  expected: readonly unknown[],
  actual: readonly unknown[],
): NonNullable<CallRecord['differences']> {
  const at = expected.findIndex((item, i) => i >= actual.length || !deepEquals(item, actual[i]));
  const found: NonNullable<CallRecord['differences']> = [];
  if (expected.length !== actual.length) {
    found.push({
      field: 'length',
      expected: String(expected.length),
      actual: String(actual.length),
    });
  }
  if (at >= 0 && at < actual.length) {
    found.push({
      field: `[${at}]`,
      expected: formatValue(expected[at]),
      actual: formatValue(actual[at]),
    });
  }
  return found;
}

/** Differences shown for one answer: enough to see the pattern. */
const MAX_DIFFERENCES = 5;

/**
 * Where two answers differ, down to the innermost field (`headers.Retry-After`), each value
 * formatted on its own: an answer too long to show whole may differ only in the part cut off.
 */
function leafDifferences(
  path: string,
  expected: unknown,
  holder: Record<string, unknown>,
  key: string,
): NonNullable<CallRecord['differences']> {
  if (!Object.hasOwn(holder, key)) {
    return [{ field: path, expected: formatValue(expected), actual: '(none)' }];
  }
  const actual = holder[key];
  if (isPlainObject(expected) && isPlainObject(actual)) {
    return Object.keys(expected)
      .filter(
        (inner) => !Object.hasOwn(actual, inner) || !deepEquals(expected[inner], actual[inner]),
      )
      .flatMap((inner) => leafDifferences(`${path}.${inner}`, expected[inner], actual, inner));
  }
  return [{ field: path, expected: formatValue(expected), actual: formatValue(actual) }];
}

/** Thrown through a case's generator to stop it early; never escapes drive(). */
const STOP = Symbol('stop');

/**
 * Plays the calls against a fresh set of instances. The source pushes calls one by one (cheaper than
 * a generator at millions of calls), and nothing is stored per call on the hot path: when a long case
 * diverges, the source is played again to show the calls before it (they went right, so what they
 * returned is what was expected).
 */
export function drive(source: CallSource, port: Port, options: DriveOptions): DriveResult {
  const kept: RawRecord[] = [];
  // Without fixtures no call can be a fixture's: spare every call the look for a dot.
  const hasFixtures = options.fixtures !== undefined && Object.keys(options.fixtures).length > 0;
  let fieldsOf: unknown;
  let fieldsList: string[] = [];
  let index = 0;
  let divergedAt: number | undefined;
  let diverged: DriveResult['diverged'];
  let thrown: Thrown | undefined;

  const emit = (call: Call): void => {
    // An object answer is read only as far as the expected fields (extra fields do no harm), so
    // the realm need not walk the learner's object. A suite that reuses one expected object
    // call after call (as generators do) gets its keys listed once.
    const expected = call.expected;
    let fields: string[] | undefined;
    if (!options.equals.custom && isPlainObject(expected) && !isThrows(expected)) {
      if (expected !== fieldsOf) {
        fieldsOf = expected;
        fieldsList = Object.keys(expected);
      }
      fields = fieldsList;
    }
    const reply = invoke(call, port, options.className, hasFixtures, fields);
    const didThrow = !reply.ok;
    const actual = reply.ok ? reply.value : undefined;
    const threw = reply.ok ? undefined : reply.error;
    const expectsThrow = isThrows(call.expected);
    const ok = expectsThrow
      ? threw !== undefined &&
        threw.isError &&
        threw.name === (call.expected as { throws: string }).throws
      : !didThrow && options.equals(call.expected, actual);
    if (!ok && divergedAt === undefined) {
      divergedAt = index;
      diverged = { actual, threw };
      if (!options.keepAll) kept.push(...callsBefore(source, index));
    }
    if (options.keepAll || divergedAt !== undefined) {
      // A source may reuse one Call object, so keep a copy.
      const note = port.status();
      kept.push({
        index,
        call: { ...call, args: [...call.args] },
        actual,
        threw,
        didThrow,
        ok,
        ...(note ? { note } : {}),
      });
    }
    index++;
    if (threw !== undefined && !expectsThrow) {
      thrown = { error: threw, notImplemented: isNotImplemented(threw) };
      throw STOP;
    }
    if (options.stopAfterDivergence && divergedAt !== undefined && index - divergedAt > CONTEXT)
      throw STOP;
  };
  port.reset(options.fixtures);
  playUntilStopped(source, emit);
  const records = kept.map((raw) => format(raw, options.className, options.tolerance ?? {}));
  return { records, totalCalls: index, divergedAt, diverged, thrown };
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
