// Which known mistakes a failing solution most likely made. Each known-wrong implementation of the
// problem (solutions/<dir>/wrong/) is played through the calls of a case the learner failed: one
// that answers every call before the learner's first wrong one as expected, and then answers (or
// throws) exactly as the learner's code did there, fails the case the same way. Its trap is then the
// likely cause. These are the judge's own classes, run beside the reference, never the learner's.
import type { KnownMistake } from '../outcome.ts';
import { isThrows, type CallSource, type FixtureSpec } from '../../suite.ts';
import { deepEquals, invoke, isPlainObject, type Equals } from './drive.ts';
import { directPort, type LearnerError, type Reply } from './port.ts';
import type { KnownWrong } from './runner.ts';

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

export function knownMistakes(request: MimicRequest): KnownMistake[] {
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
