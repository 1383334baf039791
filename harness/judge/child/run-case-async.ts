// Runs one async case (see `Suite.async`) and turns what happened into a CaseResult, as runCase does
// for the others. The time limit counts CPU time here too, so the time spent waiting for answers
// costs none of it; a call that does not settle within its deadline is the case's time limit.
import type { CaseResult } from '../outcome.ts';
import {
  decode,
  fromCalls,
  isFixed,
  isGenerated,
  isScenario,
  type Case,
  type CallSource,
  type FixedCase,
  type GeneratedCase,
} from '../../suite.ts';
import { DEFAULT_CALL_DEADLINE_MS, driveAsync, type AsyncDriveResult } from './drive-async.ts';
import { driveScenario } from './drive-scenario.ts';
import {
  caseEquals,
  classify,
  cpuMs,
  playedResult,
  SHOW_WHOLE,
  withPicture,
  type RunContext,
} from './run-case.ts';

/** The calls of a case written out or generated. */
const calls = (c: FixedCase | GeneratedCase): CallSource =>
  isFixed(c) ? fromCalls(decode(c)) : c.generate;

/** Wall time a scenario may take in all, waits included, unless it says. */
const DEFAULT_SCENARIO_WALL_MS = 20_000;

export async function runCaseAsync(c: Case, ctx: RunContext): Promise<CaseResult> {
  if (!isFixed(c) && !isGenerated(c) && !isScenario(c)) {
    throw new Error(`case "${c.name}": a property case cannot be async`);
  }
  const equals = caseEquals(ctx.suite);
  const keepAll = isScenario(c) || (isFixed(c) && c.methods.length <= SHOW_WHOLE);
  const callDeadlineMs = c.callDeadlineMs ?? ctx.suite.callDeadlineMs ?? DEFAULT_CALL_DEADLINE_MS;
  const options = {
    className: ctx.className,
    equals,
    keepAll,
    stopAfterDivergence: !keepAll,
    fixtures: c.fixtures,
    tolerance: ctx.suite.fieldTolerance,
    callDeadlineMs,
  };
  ctx.learner.clockReads?.();
  let driven: AsyncDriveResult;
  let started: number;
  if (isScenario(c)) {
    // The parent's backstop waits for the script's waits too, and no longer.
    ctx.onWaiting?.(c.wallLimitMs ?? DEFAULT_SCENARIO_WALL_MS);
    started = cpuMs();
    driven = await driveScenario(c, ctx.learner, options, ctx.services ?? {});
  } else {
    started = cpuMs();
    driven = await driveAsync(calls(c), ctx.learner, {
      ...options,
      onListed: (steps) => ctx.onWaiting?.(steps * callDeadlineMs),
    });
  }
  const ms = Math.round(cpuMs() - started);
  // Read to start the next case from zero: the real-time trap is named only for synchronous cases.
  ctx.learner.clockReads?.();
  const result = playedResult(c, ctx, driven, ms);
  if (driven.unsettled !== undefined) {
    return { ...result, status: 'time-limit-exceeded', message: driven.unsettled };
  }
  // The known mistakes are not replayed for async cases (mimic.ts plays them synchronously).
  const judged = classify(result, driven, c, ctx);
  // A call that threw where an answer was wanted is failed on what it should have answered.
  const classified: CaseResult = driven.threwForAnswer ? { ...judged, answerWanted: true } : judged;
  if (!isScenario(c)) return withPicture(classified, driven, c, ctx, calls(c));
  // A scenario is drawn from what it sketched, when its last sketch is the row that failed.
  const sketched = driven.sketched ?? [];
  const last = sketched[sketched.length - 1];
  if (last === undefined || last.row !== driven.divergedAt) return classified;
  const source = fromCalls(sketched.map((s) => s.call));
  return withPicture(classified, driven, c, ctx, source, sketched.length - 1);
}
