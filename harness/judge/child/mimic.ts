// Which known mistakes a failing solution most likely made. Each known-wrong implementation of the
// problem (solutions/<dir>/mistakes/) is played through the calls of a case the learner failed: one
// that answers every call before the learner's first wrong one as expected, and then answers (or
// throws) exactly as the learner's code did there, fails the case the same way. Its trap is then the
// likely cause. These are the judge's own classes, run beside the reference, never the learner's.
//
// The calls after the first wrong one tell more: a known mistake of the case's own trap that never
// gets wrong a field the learner's code got wrong there is not the learner's mistake, however alike
// the first wrong answer. A leaky bucket built as a meter and a queue that counts its running
// request both answer a new key's first request with one place too few; only the meter then starts
// the next request at once, and the queue's own case shows it.
import type { KnownMistake } from '../outcome.ts';
import {
  isThrows,
  type AnyClass,
  type AnyFunction,
  type CallSource,
  type FixtureSpec,
} from '../../suite.ts';
import { deepEquals, invoke, isPlainObject, type Equals, type LaterReply } from './drive.ts';
import { directPort, type LearnerError, type Reply } from '../../sandbox/port.ts';

/** A known-wrong implementation's module, as the runner script imports it. */
export interface WrongModule {
  file: string;
  module: Record<string, unknown>;
}

/** A known mistake the runner can replay to see whether a learner made it. */
export interface KnownWrong {
  file: string;
  trap: string;
  verdict: string;
  /** Its class (a function problem's function), found by the problem's name for it (or the default export). */
  find(className: string): AnyClass | AnyFunction | undefined;
}

export function knownWrong({ file, module }: WrongModule): KnownWrong | undefined {
  const expectation = module.expectation as { trap?: unknown; verdict?: unknown } | undefined;
  if (typeof expectation?.trap !== 'string' || typeof expectation.verdict !== 'string') {
    return undefined;
  }
  return {
    file,
    trap: expectation.trap,
    verdict: expectation.verdict,
    find: (className) => {
      const found = module[className] ?? module.default;
      return typeof found === 'function' ? (found as AnyClass | AnyFunction) : undefined;
    },
  };
}

/** Failures later than this call are not replayed: long replays cost more than they tell. */
export const MIMIC_MAX_CALLS = 5000;

export interface MimicRequest {
  wrongs: KnownWrong[];
  className: string;
  /** A function problem: each wrong file exports a function (see Suite.exports). */
  exportsFunction?: boolean;
  /** The calls of the failed case (for a property case: the counterexample shown). */
  source: CallSource;
  fixtures: Record<string, FixtureSpec> | undefined;
  equals: Equals;
  divergedAt: number;
  diverged: { actual: unknown; threw?: LearnerError };
  /** How the learner's calls after divergedAt went (the few the judge kept). */
  after?: LaterReply[];
  /** The case's own trap: its known mistakes are checked for going wrong as the learner did. */
  trap?: string | null;
  /** CPU time the replays may take in all; past it, the answer is what was found so far. */
  budgetMs: number;
  cpuMs: () => number;
}

const STOP = Symbol('stop');

/** Whether a wrong implementation's reply is the learner's failure: same answer, or same exception. */
function sameFailure(reply: Reply, learner: MimicRequest['diverged']): boolean {
  if (learner.threw) {
    return (
      !reply.ok &&
      reply.error.isError === learner.threw.isError &&
      reply.error.name === learner.threw.name
    );
  }
  if (!reply.ok) return false;
  const mine = learner.actual;
  const theirs = reply.value;
  // The learner's answer was read only as far as the expected fields: compare those.
  if (isPlainObject(mine) && isPlainObject(theirs)) {
    return Object.keys(mine).every(
      (key) => Object.hasOwn(theirs, key) && deepEquals(mine[key], theirs[key]),
    );
  }
  return deepEquals(mine, theirs);
}

/** Whether a reply is what the call expects (the case's own comparison). */
function answersAsExpected(expected: unknown, reply: Reply, equals: Equals): boolean {
  if (isThrows(expected))
    return !reply.ok && reply.error.isError && reply.error.name === expected.throws;
  return reply.ok && equals(expected, reply.value);
}

/** What an answer got wrong: its fields that differ (or the whole answer), or that it threw. */
function wrongParts(expected: unknown, reply: Reply, equals: Equals): string[] {
  if (!reply.ok) return isThrows(expected) ? [] : ['(throws)'];
  if (isThrows(expected)) return ['(answer)'];
  if (equals.custom || !isPlainObject(expected) || !isPlainObject(reply.value)) {
    return equals(expected, reply.value) ? [] : ['(answer)'];
  }
  const actual = reply.value;
  // The suite's own comparison, one field at a time (its tolerances apply).
  return Object.keys(expected).filter(
    (key) =>
      !equals({ [key]: expected[key] }, Object.hasOwn(actual, key) ? { [key]: actual[key] } : {}),
  );
}

/** A learner's reply as the mimic compares it. */
const asReply = (actual: unknown, threw?: LearnerError): Reply =>
  threw ? { ok: false, error: threw } : { ok: true, value: actual };

export function knownMistakes(request: MimicRequest): KnownMistake[] {
  return replayMistakes(request).found;
}

/**
 * The known mistakes that fail the case as the learner did (`found`), and the case's own trap's
 * known mistakes that, played through the calls the judge saw after the divergence, never get
 * wrong some field the learner's code got wrong there (`unlike`: not the learner's mistake).
 */
export function replayMistakes(request: MimicRequest): {
  found: KnownMistake[];
  unlike: string[];
} {
  const found = mimicking(request);
  return { found, unlike: unlikeOwn(request) };
}

function mimicking(request: MimicRequest): KnownMistake[] {
  const { divergedAt, className, equals } = request;
  if (divergedAt > MIMIC_MAX_CALLS) return [];
  const deadline = request.cpuMs() + request.budgetMs;
  const hasFixtures = Object.keys(request.fixtures ?? {}).length > 0;
  const found: KnownMistake[] = [];
  for (const wrong of request.wrongs) {
    // A mistake known to hang or to exhaust memory is not replayed: it would do so here.
    if (wrong.verdict === 'time-limit-exceeded' || wrong.verdict === 'memory-limit-exceeded') {
      continue;
    }
    const cls = wrong.find(className);
    if (cls === undefined) continue;
    const port = directPort(cls, undefined, request.exportsFunction === true);
    let same = false;
    let outOfTime = false;
    try {
      port.reset(request.fixtures);
      let index = 0;
      request.source((call) => {
        if (request.cpuMs() > deadline) {
          outOfTime = true;
          throw STOP;
        }
        const reply = invoke(call, port, className, hasFixtures);
        if (index < divergedAt) {
          // Going wrong earlier than the learner did is a different mistake.
          if (!answersAsExpected(call.expected, reply, equals)) throw STOP;
          index++;
          return;
        }
        same = sameFailure(reply, request.diverged);
        throw STOP;
      });
    } catch (error) {
      if (error !== STOP) same = false;
    }
    if (outOfTime) break;
    if (same) found.push({ file: wrong.file, trap: wrong.trap });
  }
  return found;
}

/** The case's own trap's known mistakes that never go wrong on a part the learner's code did. */
function unlikeOwn(request: MimicRequest): string[] {
  const { divergedAt, className, equals, trap } = request;
  const after = request.after ?? [];
  const own = request.wrongs.filter(
    (w) =>
      trap != null &&
      w.trap === trap &&
      w.verdict !== 'time-limit-exceeded' &&
      w.verdict !== 'memory-limit-exceeded',
  );
  if (own.length === 0 || divergedAt > MIMIC_MAX_CALLS) return [];
  const last = divergedAt + after.length;
  const deadline = request.cpuMs() + request.budgetMs;
  const hasFixtures = Object.keys(request.fixtures ?? {}).length > 0;
  const unlike: string[] = [];
  for (const wrong of own) {
    const cls = wrong.find(className);
    if (cls === undefined) continue;
    const port = directPort(cls);
    const theirs = new Set<string>();
    const learnerWrong = new Set<string>();
    let outOfTime = false;
    try {
      port.reset(request.fixtures);
      let index = 0;
      request.source((call) => {
        if (request.cpuMs() > deadline) {
          outOfTime = true;
          throw STOP;
        }
        const reply = invoke(call, port, className, hasFixtures);
        // Theirs from the first call (they may go wrong earlier), the learner's from the divergence.
        for (const part of wrongParts(call.expected, reply, equals)) theirs.add(part);
        if (index >= divergedAt) {
          const learner =
            index === divergedAt
              ? asReply(request.diverged.actual, request.diverged.threw)
              : asReply(
                  after[index - divergedAt - 1]?.actual,
                  after[index - divergedAt - 1]?.threw,
                );
          for (const part of wrongParts(call.expected, learner, equals)) learnerWrong.add(part);
        }
        index++;
        if (index > last) throw STOP;
      });
    } catch (error) {
      if (error !== STOP) continue;
    }
    if (outOfTime) break;
    if ([...learnerWrong].some((part) => !theirs.has(part))) unlike.push(wrong.file);
  }
  return unlike;
}
