// What judging produces: one result per case, and a report per problem. Shared by the child that
// runs learner code and the parent that decides verdicts, so everything here must survive IPC.
import type { CaseHints, Span, Tier } from '../suite.ts';

export type CaseStatus =
  | 'passed'
  | 'failed'
  | 'time-limit-exceeded'
  | 'memory-limit-exceeded'
  | 'runtime-error'
  | 'skipped';

export type Verdict =
  | 'accepted'
  | 'wrong-answer'
  | 'time-limit-exceeded'
  | 'memory-limit-exceeded'
  | 'runtime-error'
  | 'compile-error'
  | 'not-started';

/** One call as it happened; values are already formatted, since learner values may not be cloneable. */
export interface CallRecord {
  index: number;
  method: string;
  args: string;
  expected: string;
  actual: string;
  ok: boolean;
  /** What the case's fixtures said after the call, e.g. the clock's time `t=1000`. */
  note?: string;
  /** For an answer that is an object: the fields that differ from the expected ones. */
  fields?: string[];
  /**
   * Those fields' values, expected against actual, when the whole answers were too long to show in
   * full: the difference may be in the part cut off.
   */
  differences?: { field: string; expected: string; actual: string }[];
  /** Which instance the call went to, in a case that drives several. */
  target?: number;
  /**
   * Not a call: a step of a scenario's own (a wait, a fault, a check of the keys), shown as its text
   * rather than as `method(args)`.
   */
  step?: boolean;
}

export interface CaseResult {
  name: string;
  tier: Tier;
  trap: string | null;
  hint: string | null;
  status: CaseStatus;
  ms: number;
  /** One line saying what went wrong, when something did. */
  message?: string;
  /** For hidden cases: a summary of the input (a generated input may be far too long to show). */
  input?: string;
  /** The calls to show: all of a short case, or a window around the first divergence. */
  calls?: CallRecord[];
  totalCalls?: number;
  /** Index of the first call whose result differed (or that threw). */
  divergedAt?: number;
  /** Learner stack frames only. */
  stack?: string;
  retainedMb?: number;
  /** The learner's code threw the stub's "Not implemented" error. */
  notImplemented?: boolean;
  /**
   * Known mistakes (the suite's known-wrong implementations) that fail this case exactly as the
   * learner's code did: at the same call, with the same answer or exception.
   */
  mimics?: KnownMistake[];
  /**
   * Known mistakes of this case's own trap (file names) that, played through the calls the judge
   * saw, never got wrong a field the learner's code got wrong: not the learner's mistake.
   */
  unlike?: string[];
  /**
   * Traps that what the judge saw on this case rules out: their hints would contradict it (the
   * real-time trap, when the learner's code never read the real time while the case ran).
   */
  contradicted?: string[];
  /** Set by the diagnosis: this failure is a root cause, shown in full with its hint. */
  lead?: boolean;
  /** Set by the diagnosis on other failures: why they are put down to a lead (one line). */
  because?: string;
  /** The case catches a bug LeetCode's own tests let through (the suite marks it so). */
  beyondLeetCode?: true;
  /**
   * The judge could not judge the case: a service of its own (its Redis) failed, by no doing of the
   * learner's. The judgement is then not kept, nor reported as the learner's (see judge.ts).
   */
  judgeFailure?: string;
  /**
   * The case failed on a call that threw where an answer was wanted (a scenario's oracle was to
   * judge it): it gets the hint for a wrong answer, since the answer is what the case checks.
   */
  answerWanted?: true;
  /** Time around the first wrong call, as the suite says to draw it (see judge/picture.ts). */
  picture?: PictureData;
}

/**
 * What a failing case's picture shows, as plain data (it crosses from the child to the parent, which
 * knows the screen's width): the times in [from, to], the calls of the wrong call's lane, its
 * windows and level, and the wrong call.
 */
export interface PictureData {
  from: number;
  to: number;
  unit: string;
  /** Times are shown from this one, so named, rather than in full. */
  origin?: { at: number; name: string };
  /** Each call drawn: when, and its mark (a row of the picture). */
  marks: { at: number; mark: string }[];
  windows: Span[];
  /** The level sampled at LEVEL_SAMPLES evenly spaced times over [from, to]; null after the wrong call. */
  level?: { name: string; capacity: number; samples: (number | null)[] };
  wrong: { at: number; index: number; call: string; expected: string; actual: string };
}

/**
 * Known mistakes the judge sees directly rather than by replaying a known-wrong file; their `file`
 * is one of these. The code read the real time while the case ran:
 */
export const OBSERVED_REAL_TIME = '(reads the real time)';
/** The case failed after others ran, and passes on fresh instances alone: */
export const OBSERVED_SHARED_STATE = '(state kept outside the instances)';

/** Whether a known mistake was seen directly (not a known-wrong file that fails alike). */
export const isObserved = (mistake: KnownMistake): boolean =>
  mistake.file === OBSERVED_REAL_TIME || mistake.file === OBSERVED_SHARED_STATE;

export interface KnownMistake {
  /** The known-wrong implementation's file name, e.g. `lte-cutoff.ts`. */
  file: string;
  trap: string;
}

/** The traps a failing solution most likely fell into, root causes first. */
export interface Diagnosis {
  traps: string[];
}

export interface ProblemReport {
  dir: string;
  verdict: Verdict;
  /** For compile errors and failures to load: what and where. */
  message?: string;
  cases: CaseResult[];
  followUps: { passed: number; total: number };
  /** What the learner's code printed, shortened. */
  output: string;
  ms: number;
  /** Present when some case failed: what the report leads with. */
  diagnosis?: Diagnosis;
  /** The judgement was cancelled (a newer save, or the learner quit): nothing in it is decided. */
  cancelled?: boolean;
  /** Remembered from an earlier judgement of the same code by the same judge (see memo.ts). */
  reused?: boolean;
}

/** What the parent knows of a case before it runs: enough to drive it and to report it skipped. */
export interface CaseInfo {
  name: string;
  tier: Tier;
  trap: string | null;
  hints: CaseHints;
  needs: string[];
  timeLimitMs: number;
  /** Set when the suite chose the time limit rather than taking the default: a scale trap. */
  timeLimitSet: boolean;
  retainedLimitMb: number | null;
  /** The case catches a bug LeetCode's own tests let through. */
  beyondLeetCode: boolean;
}

export const NOT_IMPLEMENTED_PREFIX = 'Not implemented';

/** The hint that fits the way a case failed, if its suite wrote one for that. */
export function hintFor(hints: CaseHints, status: CaseStatus): string | null {
  switch (status) {
    case 'failed':
      return hints.wrong ?? null;
    case 'time-limit-exceeded':
      return hints.slow ?? null;
    case 'memory-limit-exceeded':
      return hints.memory ?? null;
    default:
      return null;
  }
}
