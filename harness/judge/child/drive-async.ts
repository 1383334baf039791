// Plays an async case (see `Suite.async`): like drive(), but a method's answer may be a promise,
// awaited before the next call, and a step may fire several calls at once (see `parallel` in
// suite.ts). Async cases are short, so their calls are listed first and then played with await;
// drive() stays synchronous and push-based, for the millions of calls of every other case.
//
// Nothing here touches a learner object: the port begins a call and is asked, turn after turn of
// the event loop, whether it has settled. The learner's realm does the awaiting itself (begin and
// settled in harness/sandbox/bridge/async-calls.ts) and answers in primitives, as for any call.
import { formatArgs, formatValue } from '../format-value.ts';
import type { CallRecord } from '../outcome.ts';
import {
  isParallel,
  isThrows,
  type Aggregate,
  type Call,
  type CallSource,
  type ParallelCall,
} from '../../suite.ts';
import {
  CONTEXT,
  format,
  invoke,
  isNotImplemented,
  type DriveOptions,
  type DriveResult,
  type RawRecord,
  type Thrown,
} from './drive.ts';
import type { LearnerError, Port, Reply } from '../../sandbox/port.ts';

/** Wall time an awaited call (or parallel step) may take to settle, unless the suite says. */
export const DEFAULT_CALL_DEADLINE_MS = 2000;
/** Async cases are listed before they are played: a case longer than this is a suite's mistake. */
export const MAX_ASYNC_CALLS = 10_000;
/**
 * For this long after a call begins, it is checked at every turn of the event loop (after every
 * microtask has run): an answer settled by microtasks, or by a quick reply from a server, is seen
 * at once. Past it, once a millisecond, so that waiting for a slow answer burns no CPU time.
 */
const SPIN_MS = 2;

export interface AsyncDriveOptions extends DriveOptions {
  /** Wall time each awaited call or parallel step may take to settle, in ms. */
  callDeadlineMs: number;
  /** Told how many steps the case has, once they are listed and before any is played. */
  onListed?: (steps: number) => void;
}

export interface AsyncDriveResult extends DriveResult {
  /** Set when a call (or a call of a parallel step) did not settle in time: what to report. */
  unsettled?: string;
  /**
   * A scenario's calls as its picture sees them (Play.sketch), each with the row it belongs to:
   * the picture is drawn when the last of them is the row that failed.
   */
  sketched?: { call: Call; row: number }[];
  /** A scenario's call threw where an oracle was to judge its answer. */
  threwForAnswer?: boolean;
}

/**
 * The case's calls, listed. A source may reuse one Call object (and one expected value) changed in
 * place, so each is copied whole.
 */
export function listCalls(source: CallSource): Call[] {
  const calls: Call[] = [];
  source((call) => {
    if (calls.length === MAX_ASYNC_CALLS) {
      throw new Error(`an async case may make at most ${MAX_ASYNC_CALLS} calls`);
    }
    calls.push(structuredClone(call));
  });
  return calls;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));

/** The replies of the calls begun, as each settles; undefined for those still pending at the deadline. */
export async function settle(
  port: Port,
  tickets: readonly number[],
  deadlineMs: number,
): Promise<(Reply | undefined)[]> {
  const settled = port.settled?.bind(port);
  if (settled === undefined) throw new Error('this port cannot await answers');
  const pump = port.pump?.bind(port);
  const replies: (Reply | undefined)[] = tickets.map(() => undefined);
  let left = tickets.length;
  const started = performance.now();
  let lastLook = false;
  for (;;) {
    // Requests the learner's code made through an outbound fixture go out before anything waits.
    pump?.();
    for (let i = 0; i < tickets.length; i++) {
      if (replies[i] !== undefined) continue;
      const reply = settled(tickets[i] as number);
      if (reply === undefined) continue;
      // A port may refill one reply object: keep a copy.
      replies[i] = reply.ok ? { ok: true, value: reply.value } : reply;
      left--;
    }
    if (left === 0 || lastLook) return replies;
    const waited = performance.now() - started;
    // Past the deadline, one more turn before giving up: a process that got no CPU for a while
    // wakes with timers overdue, and one that fell due before the deadline (a learner's own
    // timeout, which rejects the call in time) runs first, timers running in the order they fell
    // due. Without it, a busy machine could turn an answer that came in time into a timeout.
    if (waited >= deadlineMs) lastLook = true;
    await (waited < SPIN_MS ? nextTurn() : pause());
  }
}

function begin(port: Port, target: number, method: string, args: readonly unknown[]): number {
  if (port.begin === undefined) throw new Error('this port cannot await answers');
  return port.begin(target, method, args);
}

/** How one step went. */
export interface Played {
  /** A call's row, formatted later; a parallel step's row, formatted already. */
  row: { raw: RawRecord } | { record: CallRecord };
  ok: boolean;
  actual: unknown;
  threw?: LearnerError;
  /** Thrown where no exception was expected: the case stops there. */
  thrown?: LearnerError;
  unsettled?: string;
}

/**
 * One call: a constructor or a fixture's control at once, a method awaited. With `expectedOf` (a
 * scenario's oracle), what was expected is worked out from the answer, once it has come.
 */
export async function playCall(
  call: Call,
  index: number,
  port: Port,
  options: AsyncDriveOptions,
  hasFixtures: boolean,
  expectedOf?: (actual: unknown) => unknown,
): Promise<Played> {
  const { className } = options;
  const dot = hasFixtures ? call.method.indexOf('.') : -1;
  const direct =
    call.method === className || (dot > 0 && port.hasFixture(call.method.slice(0, dot)));
  let reply: Reply | undefined;
  if (direct) {
    const now = invoke(call, port, className, hasFixtures);
    reply = now.ok ? { ok: true, value: now.value } : now;
  } else {
    const ticket = begin(port, call.target ?? 0, call.method, call.args);
    [reply] = await settle(port, [ticket], options.callDeadlineMs);
  }
  const raw: RawRecord = {
    index,
    call,
    actual: undefined,
    threw: undefined,
    didThrow: false,
    ok: false,
  };
  if (reply === undefined) {
    const text = `${call.method}(${formatArgs(call.args)})`;
    return {
      row: { raw },
      ok: false,
      actual: undefined,
      unsettled: `call ${index} ${text} did not settle within ${options.callDeadlineMs} ms`,
    };
  }
  const threw = reply.ok ? undefined : reply.error;
  if (expectedOf !== undefined && reply.ok) call.expected = await expectedOf(reply.value);
  raw.actual = reply.ok ? reply.value : undefined;
  raw.threw = threw;
  raw.didThrow = threw !== undefined;
  const expected = call.expected;
  const expectsThrow = isThrows(expected);
  raw.ok = expectsThrow
    ? threw !== undefined && threw.isError && threw.name === expected.throws
    : threw === undefined && options.equals(expected, raw.actual);
  return {
    row: { raw },
    ok: raw.ok,
    actual: raw.actual,
    threw,
    thrown: threw !== undefined && !expectsThrow ? threw : undefined,
  };
}

/** `8–12` or `10`. */
const range = ([min, max]: [number, number]): string => (min === max ? `${min}` : `${min}–${max}`);

/** The calls of a step in a few words: `50× allow("k") on instances 0–49`. */
export function describeStep(calls: readonly ParallelCall[]): string {
  const texts = calls.map((c) => `${c.method}(${formatArgs(c.args)})`);
  const first = texts[0] ?? '';
  const what = texts.every((text) => text === first)
    ? `${calls.length}× ${first}`
    : `${texts.slice(0, 3).join(', ')}${calls.length > 3 ? `, … (${calls.length} calls)` : ''}`;
  const targets = [...new Set(calls.map((c) => c.target ?? 0))].sort((a, b) => a - b);
  const low = targets[0] ?? 0;
  const high = targets[targets.length - 1] ?? 0;
  if (targets.length === 1) return low === 0 ? what : `${what} on instance ${low}`;
  if (high - low + 1 === targets.length) return `${what} on instances ${low}–${high}`;
  return `${what} on ${targets.length} instances`;
}

function checkStep(call: Call, className: string): { calls: ParallelCall[]; aggregate: Aggregate } {
  const calls = call.args as ParallelCall[];
  const aggregate = call.expected as Aggregate;
  const [min, max] = Array.isArray(aggregate?.between) ? aggregate.between : [];
  if (
    calls.length === 0 ||
    typeof min !== 'number' ||
    typeof max !== 'number' ||
    !(min <= max) ||
    !calls.every((c) => typeof c?.method === 'string' && Array.isArray(c.args))
  ) {
    throw new Error(
      'a parallel step needs calls ({ method, args, target? }) and { where, between: [min, max] }',
    );
  }
  if (calls.some((c) => c.method === className || c.method.includes('.'))) {
    throw new Error('a parallel step fires methods of instances, not constructors or fixtures');
  }
  return { calls, aggregate };
}

/**
 * A parallel step: every call begun before any is awaited, then their answers counted. With
 * `bandOf` (a scenario's), the range expected is worked out once they have settled.
 */
export async function playParallel(
  call: Call,
  index: number,
  port: Port,
  options: AsyncDriveOptions,
  bandOf?: () => Promise<[number, number]>,
  answers?: unknown[],
): Promise<Played> {
  const { calls, aggregate } = checkStep(call, options.className);
  const tickets = calls.map((c) => begin(port, c.target ?? 0, c.method, c.args));
  const replies = await settle(port, tickets, options.callDeadlineMs);
  if (bandOf !== undefined) aggregate.between = await bandOf();
  for (const reply of replies) answers?.push(reply?.ok ? reply.value : undefined);
  const n = calls.length;
  const counted = aggregate.where === null ? 'answers' : `match ${formatValue(aggregate.where)}`;
  const record: CallRecord = {
    index,
    method: 'parallel',
    args: describeStep(calls),
    expected: `${range(aggregate.between)} of ${n} ${counted}`,
    actual: '',
    ok: false,
  };
  const which = (i: number): string => {
    const c = calls[i] as ParallelCall;
    return `${c.method}(${formatArgs(c.args)}) on instance ${c.target ?? 0}`;
  };
  const failed = replies.findIndex((reply) => reply !== undefined && !reply.ok);
  const failure = replies[failed];
  if (failure !== undefined && !failure.ok) {
    const { error } = failure;
    record.actual = `${which(failed)} throws ${error.isError ? `${error.name}: ${error.message}` : error.message}`;
    return { row: { record }, ok: false, actual: undefined, threw: error, thrown: error };
  }
  const pending = replies.filter((reply) => reply === undefined).length;
  if (pending > 0) {
    record.actual = `${pending} of ${n} did not settle`;
    return {
      row: { record },
      ok: false,
      actual: undefined,
      unsettled:
        `call ${index} (${n} calls at once): ${pending} did not settle within ` +
        `${options.callDeadlineMs} ms, the first ${which(replies.indexOf(undefined))}`,
    };
  }
  let count = 0;
  for (const reply of replies) {
    if (reply?.ok && options.equals(aggregate.where, reply.value)) count++;
  }
  const [min, max] = aggregate.between;
  record.ok = count >= min && count <= max;
  record.actual = `${count} of ${n} ${counted}`;
  return { row: { record }, ok: record.ok, actual: count };
}

/**
 * Plays the case's calls against a fresh set of instances, awaiting each; stops at the first
 * exception not expected, at the first call that does not settle in time, and a few calls after
 * the first wrong answer unless every record is kept.
 */
export async function driveAsync(
  source: CallSource,
  port: Port,
  options: AsyncDriveOptions,
): Promise<AsyncDriveResult> {
  const calls = listCalls(source);
  options.onListed?.(calls.length);
  const hasFixtures = options.fixtures !== undefined && Object.keys(options.fixtures).length > 0;
  const rows: { played: Played; note: string }[] = [];
  let divergedAt: number | undefined;
  let diverged: DriveResult['diverged'];
  let thrown: Thrown | undefined;
  let unsettled: string | undefined;
  port.reset(options.fixtures);
  let index = 0;
  while (index < calls.length) {
    const call = calls[index] as Call;
    const played = isParallel(call)
      ? await playParallel(call, index, port, options)
      : await playCall(call, index, port, options, hasFixtures);
    rows.push({ played, note: port.status() });
    if (!played.ok && divergedAt === undefined) {
      divergedAt = index;
      diverged = { actual: played.actual, threw: played.threw };
    }
    index++;
    if (played.unsettled !== undefined) {
      unsettled = played.unsettled;
      break;
    }
    if (played.thrown !== undefined) {
      thrown = { error: played.thrown, notImplemented: isNotImplemented(played.thrown) };
      break;
    }
    if (options.stopAfterDivergence && divergedAt !== undefined && index - divergedAt > CONTEXT) {
      break;
    }
  }
  const from = options.keepAll ? 0 : divergedAt === undefined ? rows.length : divergedAt - CONTEXT;
  const records = rows.slice(Math.max(0, from)).map(({ played, note }) => {
    if ('record' in played.row) return note ? { ...played.row.record, note } : played.row.record;
    const record = format(played.row.raw, options.className, options.tolerance ?? {});
    if (note) record.note = note;
    if (played.unsettled !== undefined) record.actual = 'did not settle';
    return record;
  });
  return { records, totalCalls: index, divergedAt, diverged, thrown, unsettled };
}
