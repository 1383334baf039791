// What a mock interview leaves in the progress file, and the rule that scores it. Kept here, beside
// progress.ts, because the progress file must know the record's shape to check and merge it; the
// interviews themselves (data in interviews/) and the command that runs them live in scripts/.
// Nothing here names a problem or an interview.

export type RungKind = 'code' | 'discussion';
export type RungStatus = 'pending' | 'current' | 'passed' | 'skipped' | 'timed-out';
export type InterviewMode = 'interview' | 'practice';
/** How it ended: every rung answered, the clock, `e`, or `--restart`. */
export type InterviewOutcome = 'completed' | 'time-up' | 'ended' | 'abandoned';

export interface RungRecord {
  id: string;
  kind: RungKind;
  /** The kata's folder name (a coding rung, or the quiz a discussion rung draws on), else null. */
  problem: string | null;
  status: RungStatus;
  /** Time from the question being asked to the rung being left. */
  ms: number;
  /** Saves judged (the stub as shipped is no attempt), or discussion questions answered. */
  attempts: number;
  hints: number;
  /** The last hint, which all but gives the idea away, was shown: the rung cannot count as passed. */
  gaveAway: boolean;
  /** Traps the judge led its reports with, in the order first named. */
  traps: string[];
  /** A coding rung's last verdict; a discussion rung's right answers as "2/3". */
  verdict: string | null;
  /** The follow-up traps the rung's gate needs, besides the core cases. */
  gate: string[];
}

export interface InterviewRecord {
  id: string;
  name: string;
  title: string;
  mode: InterviewMode;
  outcome: InterviewOutcome;
  startedAt: string;
  endedAt: string;
  budgetMs: number;
  /** 1–4, or null: practice mode, or nothing was attempted (an untouched stub never scores). */
  score: number | null;
  selfRating: number | null;
  rungs: RungRecord[];
}

export const SCORE_LABEL: Record<number, string> = {
  4: 'strong hire',
  3: 'hire',
  2: 'lean no hire',
  1: 'no hire',
};

/**
 * What a rung earns (the rule interviews/README.md states): 1 passed without hints, ½ passed with
 * hints, 0 otherwise. A rung passed after the last hint earns 0: that hint is nearly the answer.
 */
export function rungPoints(rung: Pick<RungRecord, 'status' | 'hints' | 'gaveAway'>): number {
  if (rung.status !== 'passed' || rung.gaveAway) return 0;
  return rung.hints === 0 ? 1 : 0.5;
}

/** The least share of the points for each score: 85 % or more is 4, 60 % 3, 35 % 2, else 1. */
const BARS: [number, number][] = [
  [0.85, 4],
  [0.6, 3],
  [0.35, 2],
];

/**
 * The score on the 1–4 scale: the points of every rung over the number of rungs (a rung not reached
 * before time was up, or skipped, earns nothing). Null in practice mode, and when nothing was
 * attempted: no save judged and no question answered.
 */
export function scoreInterview(
  mode: InterviewMode,
  rungs: Pick<RungRecord, 'status' | 'hints' | 'gaveAway' | 'attempts'>[],
): number | null {
  if (mode === 'practice' || rungs.length === 0) return null;
  if (rungs.every((rung) => rung.attempts === 0)) return null;
  const share = rungs.reduce((sum, rung) => sum + rungPoints(rung), 0) / rungs.length;
  return BARS.find(([bar]) => share >= bar)?.[1] ?? 1;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isRating = (v: unknown): boolean =>
  v === null || (isCount(v) && Number(v) >= 1 && Number(v) <= 4);
const STATUSES: readonly string[] = ['pending', 'current', 'passed', 'skipped', 'timed-out'];
const OUTCOMES: readonly string[] = ['completed', 'time-up', 'ended', 'abandoned'];

function isRungRecord(v: unknown): v is RungRecord {
  return (
    isObject(v) &&
    typeof v.id === 'string' &&
    (v.kind === 'code' || v.kind === 'discussion') &&
    (v.problem === null || typeof v.problem === 'string') &&
    STATUSES.includes(v.status as string) &&
    isCount(v.ms) &&
    isCount(v.attempts) &&
    isCount(v.hints) &&
    typeof v.gaveAway === 'boolean' &&
    Array.isArray(v.traps) &&
    v.traps.every((t) => typeof t === 'string') &&
    (v.verdict === null || typeof v.verdict === 'string') &&
    Array.isArray(v.gate) &&
    v.gate.every((t) => typeof t === 'string')
  );
}

/** Whether a value read from a file is an interview record this program could have written. */
export function isInterviewRecord(v: unknown): v is InterviewRecord {
  return (
    isObject(v) &&
    typeof v.id === 'string' &&
    typeof v.name === 'string' &&
    typeof v.title === 'string' &&
    (v.mode === 'interview' || v.mode === 'practice') &&
    OUTCOMES.includes(v.outcome as string) &&
    typeof v.startedAt === 'string' &&
    typeof v.endedAt === 'string' &&
    isCount(v.budgetMs) &&
    isRating(v.score) &&
    isRating(v.selfRating) &&
    Array.isArray(v.rungs) &&
    v.rungs.every(isRungRecord)
  );
}
