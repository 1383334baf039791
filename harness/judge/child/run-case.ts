// Runs one case of a suite against the learner's class and turns what happened into a CaseResult.
// Runs inside the judge's child process; nothing here may assume it survives the learner's code.
import { createRequire } from 'node:module';
import type * as FastCheck from 'fast-check';
import { OBSERVED_REAL_TIME, OBSERVED_SHARED_STATE, type CaseResult } from '../outcome.ts';
import {
  decode,
  isFixed,
  isGenerated,
  fromCalls,
  type CallSource,
  type Case,
  type Encoded,
  type FixedCase,
  type GeneratedCase,
  isScenario,
  type ScenarioCase,
  type PropertyCase,
  type Suite,
} from '../../suite.ts';
import {
  answerEquals,
  drive,
  invoke,
  type DriveResult,
  type Equals,
  type Thrown,
} from './drive.ts';
import type { ScenarioServices } from './drive-scenario.ts';
import { knownMistakes } from './mimic.ts';
import { directPort, type Port } from './port.ts';
import type { KnownWrong } from './runner.ts';
import { learnerStack } from './stack.ts';

export const DEFAULT_TIME_LIMIT_MS = 1000;

/**
 * fast-check, loaded by Node's `require` on the first property case: the child then shares one copy
 * with every suite (whose runner scripts require it too), and a child that runs no property case
 * never parses it.
 */
let fastCheck: typeof FastCheck | undefined;
const loadFastCheck = (): typeof FastCheck =>
  (fastCheck ??= createRequire(import.meta.url)('fast-check') as typeof FastCheck);
/** Fixed seed: a property case must fail the same way on every run. */
export const PROPERTY_SEED = 20261129;
/** Cases up to this many calls are shown whole. */
export const SHOW_WHOLE = 40;

/**
 * CPU time of this process in ms. Verdicts are timed in CPU time, as LeetCode times them, so that a
 * busy machine cannot turn a fast solution into a Time Limit Exceeded; wall time only serves the
 * parent's kill switch for code that never stops.
 */
const cpuUsage = process.cpuUsage.bind(process);
export function cpuMs(): number {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
}

export interface RunContext {
  suite: Suite;
  /** The learner's class, reached only through its realm's bridge. */
  learner: Port;
  className: string;
  /** Path of the learner's source, to cut stacks down to their frames. */
  learnerFile: string;
  /** Rewrites positions in the learner's bundle to positions in their source. */
  mapStack?: (stack: string) => string;
  /** The problem's known-wrong implementations, to name the mistake behind a failure. */
  wrongs?: KnownWrong[];
  /** The learner's class in a realm of its own, freshly loaded: nothing earlier cases left. */
  fresh?: () => Port | undefined;
  /** Async cases: told the most wall time the case may spend waiting for answers, in ms. */
  onWaiting?: (ms: number) => void;
  /** Scenario cases: the services their scripts use (the case's Redis, the realm's clock). */
  services?: ScenarioServices;
}

/** Whether a failed case passes on a freshly loaded module, i.e. earlier cases broke it. */
function passesAlone(c: Case, ctx: RunContext, source: CallSource, equals: Equals): boolean {
  const port = ctx.fresh?.();
  if (port === undefined) return false;
  const driven = drive(source, port, {
    className: ctx.className,
    equals,
    keepAll: false,
    stopAfterDivergence: true,
    fixtures: c.fixtures,
    tolerance: ctx.suite.fieldTolerance,
  });
  return driven.divergedAt === undefined && driven.thrown === undefined;
}

/** Most CPU time spent naming the known mistake behind one failed case. */
const MIMIC_BUDGET_MS = 250;

/**
 * Names the known mistakes that fail this case as the learner did. Only for a case that finished
 * within its limit, and with at most half the limit more: the parent's kill deadline (half the
 * limit and 250 ms past it) must never be reached by this. `readRealTime` is whether the learner's
 * code read the real time while the case ran (undefined where that was not watched).
 */
function withMistakes(
  played: CaseResult,
  driven: DriveResult,
  c: Case,
  ctx: RunContext,
  source: CallSource,
  equals: Equals,
  readRealTime?: boolean,
): CaseResult {
  const limit = c.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  const failed = played.status === 'failed' || played.status === 'runtime-error';
  // What the judge saw rules the real-time trap out: its hint would contradict it.
  const result =
    failed && readRealTime === false && ctx.suite.realTimeTrap !== undefined
      ? { ...played, contradicted: [ctx.suite.realTimeTrap] }
      : played;
  if (!failed || result.notImplemented || !ctx.wrongs?.length || result.ms > limit) return result;
  if (driven.divergedAt === undefined || driven.diverged === undefined) return result;
  const mimics = knownMistakes({
    wrongs: ctx.wrongs,
    className: ctx.className,
    exportsFunction: ctx.suite.exports === 'function',
    source,
    fixtures: c.fixtures,
    equals,
    divergedAt: driven.divergedAt,
    diverged: driven.diverged,
    budgetMs: Math.min(MIMIC_BUDGET_MS, limit / 2),
    cpuMs,
  });
  // A case failed while the code read the real time: the clock it was handed was not used.
  if (readRealTime === true && ctx.suite.realTimeTrap !== undefined) {
    mimics.push({ file: OBSERVED_REAL_TIME, trap: ctx.suite.realTimeTrap });
  }
  // State kept outside the instances shows as a case that fails after others ran, not alone. (A
  // case that fails alone too may still be failed by it: its own instances share it.)
  const trap = ctx.suite.sharedStateTrap;
  if (trap !== undefined && result.ms * 4 <= limit && passesAlone(c, ctx, source, equals)) {
    mimics.push({ file: OBSERVED_SHARED_STATE, trap });
  }
  return mimics.length > 0 ? { ...result, mimics } : result;
}

/** How a suite compares an answer with the one expected. */
export function caseEquals(suite: Suite): Equals {
  const own = suite.equals;
  // A suite's own comparison may look at every field of an answer: say so, so that it gets them.
  return own
    ? Object.assign((expected: unknown, actual: unknown) => own(expected, actual), { custom: true })
    : answerEquals(suite.fieldTolerance);
}

/** A case's result before it has run: passed until something says otherwise. */
export function caseBase(c: Case): CaseResult {
  return {
    name: c.name,
    tier: c.tier,
    trap: c.trap,
    // The parent gives each result the hint that fits the way it failed.
    hint: null,
    status: 'passed',
    ms: 0,
  };
}

/**
 * The result of a played case: its calls, and the memory its instances keep. Memory decides nothing
 * once the case failed on its answers or its time: then it is not measured (each measurement costs
 * full garbage collections).
 */
export function playedResult(
  c: FixedCase | GeneratedCase | ScenarioCase,
  ctx: RunContext,
  driven: DriveResult,
  ms: number,
): CaseResult {
  const limit = c.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  const measured =
    c.retainedLimitMb !== undefined &&
    driven.thrown === undefined &&
    driven.divergedAt === undefined &&
    ms <= limit;
  const result: CaseResult = {
    ...caseBase(c),
    ms,
    input: isFixed(c) ? undefined : c.describe,
    calls: driven.records,
    totalCalls: driven.totalCalls,
    divergedAt: driven.divergedAt,
  };
  if (measured) result.retainedMb = retainedBy(ctx.learner, c.retainedLimitMb);
  return result;
}

export function runCase(c: Case, ctx: RunContext): CaseResult {
  const base = caseBase(c);
  const equals = caseEquals(ctx.suite);
  if (isScenario(c)) throw new Error(`case "${c.name}": a scenario needs an async case`);
  if (!isFixed(c) && !isGenerated(c)) return runProperty(c, ctx, base, equals);

  const calls: CallSource = isFixed(c) ? fromCalls(decode(c)) : c.generate;
  const keepAll = isFixed(c) && c.methods.length <= SHOW_WHOLE;
  ctx.learner.clockReads?.();
  const started = cpuMs();
  const driven = drive(calls, ctx.learner, {
    className: ctx.className,
    equals,
    keepAll,
    stopAfterDivergence: !keepAll,
    fixtures: c.fixtures,
    tolerance: ctx.suite.fieldTolerance,
  });
  const ms = Math.round(cpuMs() - started);
  const readRealTime = (ctx.learner.clockReads?.() ?? 0) > 0;
  return withMistakes(
    classify(playedResult(c, ctx, driven, ms), driven, c, ctx),
    driven,
    c,
    ctx,
    calls,
    equals,
    readRealTime,
  );
}

export function classify(
  result: CaseResult,
  driven: DriveResult,
  c: Case,
  ctx: RunContext,
): CaseResult {
  if (driven.thrown) return thrownResult(result, driven.thrown, ctx);
  if (driven.divergedAt !== undefined) {
    return {
      ...result,
      status: 'failed',
      message: `call ${driven.divergedAt} returned a wrong value`,
    };
  }
  const limit = c.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  if (result.ms > limit) {
    return {
      ...result,
      status: 'time-limit-exceeded',
      message: `took ${result.ms} ms; the limit is ${limit} ms`,
    };
  }
  if (c.retainedLimitMb !== undefined && (result.retainedMb ?? 0) > c.retainedLimitMb) {
    return {
      ...result,
      status: 'memory-limit-exceeded',
      message: `keeps ${result.retainedMb} MB after the calls; the limit is ${c.retainedLimitMb} MB`,
    };
  }
  return result;
}

/**
 * Names some JavaScript host offers as globals and the learner's realm does not have: a
 * ReferenceError about one of them is no missing declaration. (Node's globals are asked of Node.)
 */
const HOST_NAMES = new Set([
  'require',
  'module',
  'exports',
  '__dirname',
  '__filename',
  'window',
  'document',
  'self',
]);

/**
 * What to add to an error the learner's code threw when it is a ReferenceError "x is not defined"
 * and x is no global anywhere: in pasted JavaScript that is most often a variable assigned without
 * a declaration, which sloppy scripts allow and modules (always strict) refuse. Empty otherwise.
 */
export function undeclaredAdvice(error: {
  isError: boolean;
  name: string;
  message: string;
}): string {
  if (!error.isError || error.name !== 'ReferenceError') return '';
  const name = /^([\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*) is not defined$/u.exec(
    error.message,
  )?.[1];
  if (name === undefined || HOST_NAMES.has(name) || name in globalThis) return '';
  return `. Your file runs as a module, and modules are strict: a variable must be declared before it is used, so ${name} needs \`let\` (or \`const\`).`;
}

function thrownResult(result: CaseResult, thrown: Thrown, ctx: RunContext): CaseResult {
  const error = thrown.error;
  const message = error.isError
    ? `${error.name}: ${error.message}${undeclaredAdvice(error)}`
    : `threw a non-Error: ${error.message}`;
  return {
    ...result,
    status: 'runtime-error',
    message,
    notImplemented: thrown.notImplemented || undefined,
    stack: error.isError ? learnerStack(error.stack, ctx.learnerFile, ctx.mapStack) : undefined,
  };
}

/**
 * MB the instances keep alive: memory after a full GC with them, less memory after a full GC without
 * them. Measuring by difference leaves out what the run left behind that is not theirs (compiled
 * code, type feedback). ArrayBuffers count too: a typed array's contents live outside the JS heap.
 */
export function retainedBy(learner: Port, limitMb = Infinity): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('memory is measured only with --expose-gc');
  const reading = (): number => {
    gc();
    const memory = process.memoryUsage();
    return memory.heapUsed + memory.arrayBuffers;
  };
  const mb = (bytes: number): number => Math.max(0, Math.round((bytes / 1e6) * 100) / 100);
  // A reading carries 0.16-0.28 MB that is nobody's now and then, more often in the first
  // collections after a heavy case; the least of three readings leaves it out. With the instances
  // that takes three. Without them one reading settles a case far under its limit (noise there
  // could only lower the figure, by less than NOBODYS_MB); nearer the limit, three again.
  const withThem = Math.min(reading(), reading(), reading());
  learner.dropInstances();
  const without = reading();
  const quick = mb(withThem - without);
  if (quick + NOBODYS_MB < limitMb / 2) return quick;
  return mb(withThem - Math.min(without, reading(), reading()));
}

/** The most a single reading was seen to carry that belongs to no one, with room to spare. */
const NOBODYS_MB = 0.3;

/** Runs the reference (with fixtures of its own) over a call sequence to learn each answer. */
function withExpected(
  encoded: Encoded,
  ctx: RunContext,
  fixtures: Case['fixtures'],
  reference: Port,
): Encoded {
  reference.reset(fixtures);
  const expected = decode(encoded).map((call) => {
    const reply = invoke(call, reference, ctx.className);
    if (reply.ok) return reply.value ?? null;
    return { throws: reply.error.isError ? reply.error.name : 'Error' };
  });
  return { ...encoded, expected };
}

function runProperty(
  c: PropertyCase,
  ctx: RunContext,
  base: CaseResult,
  equals: Equals,
): CaseResult {
  // While searching, only pass or fail matters: a run stops soon after it diverges and formats
  // nothing. The shrunk counterexample is played again with every call kept, to be shown.
  const searching = {
    className: ctx.className,
    equals,
    keepAll: false,
    stopAfterDivergence: true,
    fixtures: c.fixtures,
    tolerance: ctx.suite.fieldTolerance,
  };
  const showing = { ...searching, keepAll: true, stopAfterDivergence: false };
  const reference = directPort(ctx.suite.reference, undefined, ctx.suite.exports === 'function');
  const fc = loadFastCheck();
  const started = cpuMs();
  const outcome = fc.check(
    fc.property(c.property.calls, (encoded) => {
      const withAnswers = withExpected(encoded, ctx, c.fixtures, reference);
      const driven = drive(fromCalls(decode(withAnswers)), ctx.learner, searching);
      return driven.divergedAt === undefined && driven.thrown === undefined;
    }),
    { seed: PROPERTY_SEED, numRuns: c.property.numRuns ?? 100 },
  );
  const ms = Math.round(cpuMs() - started);
  if (!outcome.failed || !outcome.counterexample) return { ...base, ms };

  // Replay the shrunk counterexample to show it call by call.
  const minimal = withExpected(outcome.counterexample[0], ctx, c.fixtures, reference);
  const driven = drive(fromCalls(decode(minimal)), ctx.learner, showing);
  const result: CaseResult = {
    ...base,
    ms,
    input: `minimal counterexample after ${outcome.numShrinks} shrinks`,
    calls: driven.records,
    totalCalls: driven.totalCalls,
    divergedAt: driven.divergedAt,
  };
  const shown = fromCalls(decode(minimal));
  if (driven.thrown) {
    return withMistakes(thrownResult(result, driven.thrown, ctx), driven, c, ctx, shown, equals);
  }
  if (driven.divergedAt === undefined) {
    // The failure did not replay: the class depends on state outside the instance.
    return {
      ...result,
      status: 'failed',
      message:
        'failed on a random sequence but not when replayed alone: state leaks between instances',
    };
  }
  const failed: CaseResult = {
    ...result,
    status: 'failed',
    message: `a random call sequence disagrees with the reference`,
  };
  return withMistakes(failed, driven, c, ctx, shown, equals);
}
