// The document `npm run grade -- --json` prints: declared here, once, so that a script reading it
// can rely on its shape. `version` changes when a field is removed, renamed or changes meaning; a
// field added does not change it, so a reader ignores the keys it does not know.
import type { CaseStatus, ProblemReport, Verdict } from '../../harness/judge/outcome.ts';
import type { Problem } from '../../harness/judge/problems.ts';
import type { Unmet } from '../../harness/judge/requirements.ts';
import type { Tier } from '../../harness/suite.ts';
import { drawPicture } from '../../harness/terminal/picture.ts';
import { makeStyle } from '../../harness/terminal/style.ts';
import { DEFAULT_WIDTH } from '../../harness/terminal/wrap.ts';

export const GRADE_JSON_VERSION = 1;

export interface GradeJson {
  version: typeof GRADE_JSON_VERSION;
  /** The problems graded, in ladder order. */
  problems: GradeJsonProblem[];
}

export interface GradeJsonProblem {
  /** The leading number of the folder, or the whole name when it has none: '933', 'token-bucket'. */
  id: string;
  /** The folder name: what progress and `--dir` use. */
  dir: string;
  title: string;
  /** `unavailable`: this machine lacks what the problem needs (Redis); it was not judged. */
  verdict: Verdict | 'unavailable';
  /** Only when `unavailable`: what is missing and how to get it, in one line. */
  message?: string;
  /** The verdict was kept from the last grade (file and judge unchanged). */
  reused: boolean;
  followUps: { passed: number; total: number };
  /** The traps the report leads with, root causes first (empty when nothing failed). */
  diagnosis: { traps: string[] };
  cases: GradeJsonCase[];
}

export interface GradeJsonCase {
  name: string;
  tier: Tier;
  /** The trap the case is built to catch; null for an example. */
  trap: string | null;
  status: CaseStatus;
  /** CPU time, in milliseconds. */
  ms: number;
  /** What went wrong, in one line; null when the case passed. */
  message: string | null;
  /**
   * Only on the lead failing case of a problem whose suite declares a picture: the timeline
   * around its first wrong call, as the report draws it, one string a line, 80 columns, no colour.
   */
  picture?: string[];
}

const PLAIN = makeStyle(false);

export const gradeJson = (problems: GradeJsonProblem[]): GradeJson => ({
  version: GRADE_JSON_VERSION,
  problems,
});

export function gradedJson(problem: Problem, report: ProblemReport): GradeJsonProblem {
  return {
    id: problem.id,
    dir: problem.dir,
    title: problem.title,
    verdict: report.verdict,
    reused: report.reused === true,
    followUps: { passed: report.followUps.passed, total: report.followUps.total },
    diagnosis: { traps: report.diagnosis?.traps ?? [] },
    cases: report.cases.map((c) => ({
      name: c.name,
      tier: c.tier,
      trap: c.trap,
      status: c.status,
      ms: c.ms,
      message: c.status === 'passed' ? null : (c.message ?? null),
      ...(c.lead && c.picture ? { picture: drawPicture(c.picture, PLAIN, DEFAULT_WIDTH) } : {}),
    })),
  };
}

/** The same keys as a judged problem's, nothing in them judged, and the line kata would print. */
export function unjudgedJson(problem: Problem, unmet: Unmet): GradeJsonProblem {
  return {
    id: problem.id,
    dir: problem.dir,
    title: problem.title,
    verdict: 'unavailable',
    message: unmet.message,
    reused: false,
    followUps: { passed: 0, total: 0 },
    diagnosis: { traps: [] },
    cases: [],
  };
}
