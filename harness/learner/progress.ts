// The learner's progress: one JSON file, keyed by problem folder name. Writes are atomic (temporary
// file, then rename), and a file that cannot be read is moved aside rather than lost or trusted.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ProblemReport, Verdict } from '../judge/outcome.ts';
import { STATE_DIR } from '../paths.ts';

export const PROGRESS_FILE = path.join(STATE_DIR, 'progress.json');

export interface ProblemProgress {
  firstAttempted: string;
  firstAccepted: string | null;
  lastAttempted: string;
  attempts: number;
  bestVerdict: Verdict;
  followUpsPassed: number;
  followUpsTotal: number;
  /** Hints shown so far (`npm run hint`, or `h` in watch mode). */
  hintsUsed?: number;
  /** When the reference was first shown, and whether that was before the problem was accepted. */
  solutionViewed?: string | null;
  solutionViewedBeforeAccepted?: boolean;
  /** Quiz scores: the best and the latest, out of `total` questions. */
  quiz?: { best: number; last: number; total: number; at: string };
}

export interface Progress {
  version: 1;
  problems: Record<string, ProblemProgress>;
}

/** Lower is better: how far a verdict got. */
const RANK: Record<Verdict, number> = {
  accepted: 0,
  'wrong-answer': 1,
  'time-limit-exceeded': 1,
  'memory-limit-exceeded': 1,
  'runtime-error': 1,
  'compile-error': 2,
  'not-started': 3,
};

export function emptyProgress(): Progress {
  return { version: 1, problems: {} };
}

export function isProgress(value: unknown): value is Progress {
  const v = value as Progress;
  return (
    typeof v === 'object' &&
    v !== null &&
    v.version === 1 &&
    typeof v.problems === 'object' &&
    v.problems !== null &&
    Object.values(v.problems).every(
      (p) =>
        typeof p === 'object' &&
        p !== null &&
        typeof p.attempts === 'number' &&
        typeof p.followUpsPassed === 'number' &&
        typeof p.followUpsTotal === 'number' &&
        typeof p.firstAttempted === 'string' &&
        typeof p.lastAttempted === 'string' &&
        Object.hasOwn(RANK, p.bestVerdict) &&
        (p.hintsUsed === undefined || typeof p.hintsUsed === 'number') &&
        (p.quiz === undefined ||
          (typeof p.quiz === 'object' &&
            p.quiz !== null &&
            typeof p.quiz.best === 'number' &&
            typeof p.quiz.last === 'number' &&
            typeof p.quiz.total === 'number' &&
            typeof p.quiz.at === 'string')),
    )
  );
}

/** Reads progress; a corrupt file is moved aside (with a warning) and an empty record returned. */
export function loadProgress(warn: (message: string) => void, file = PROGRESS_FILE): Progress {
  if (!existsSync(file)) return emptyProgress();
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (isProgress(parsed)) return parsed;
    throw new Error('unexpected shape');
  } catch (error) {
    const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(file, aside);
    warn(
      `warning: ${file} could not be read (${(error as Error).message}); moved it to ${aside} and started afresh`,
    );
    return emptyProgress();
  }
}

export function saveProgress(progress: Progress, file = PROGRESS_FILE): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(progress, null, 2)}\n`);
  renameSync(temporary, file);
}

export function recordReport(progress: Progress, report: ProblemReport, now = new Date()): void {
  const at = now.toISOString();
  const previous = progress.problems[report.dir];
  const accepted = report.verdict === 'accepted';
  const better = !previous || RANK[report.verdict] < RANK[previous.bestVerdict];
  progress.problems[report.dir] = {
    // Hints, solution views and quiz scores are not the judge's to change.
    ...previous,
    firstAttempted: previous?.firstAttempted ?? at,
    firstAccepted: previous?.firstAccepted ?? (accepted ? at : null),
    lastAttempted: at,
    attempts: (previous?.attempts ?? 0) + (report.verdict === 'not-started' ? 0 : 1),
    bestVerdict: better ? report.verdict : previous.bestVerdict,
    followUpsPassed: Math.max(previous?.followUpsPassed ?? 0, report.followUps.passed),
    followUpsTotal: report.followUps.total,
  };
}

/** The entry for a problem, created blank (not started, no attempts) on first use. */
export function entryFor(progress: Progress, dir: string, now = new Date()): ProblemProgress {
  const at = now.toISOString();
  progress.problems[dir] ??= {
    firstAttempted: at,
    firstAccepted: null,
    lastAttempted: at,
    attempts: 0,
    bestVerdict: 'not-started',
    followUpsPassed: 0,
    followUpsTotal: 0,
  };
  return progress.problems[dir];
}

const earliest = (a: string | null | undefined, b: string | null | undefined): string | null =>
  a && b ? (a < b ? a : b) : (a ?? b ?? null);
const latest = (a: string, b: string): string => (a > b ? a : b);

/** Merges one problem's record into another: earliest dates, best verdict and scores, most of each count. */
function mergeEntry(mine: ProblemProgress, theirs: ProblemProgress): ProblemProgress {
  const merged: ProblemProgress = {
    firstAttempted: earliest(mine.firstAttempted, theirs.firstAttempted) as string,
    firstAccepted: earliest(mine.firstAccepted, theirs.firstAccepted),
    lastAttempted: latest(mine.lastAttempted, theirs.lastAttempted),
    attempts: Math.max(mine.attempts, theirs.attempts),
    bestVerdict:
      RANK[theirs.bestVerdict] < RANK[mine.bestVerdict] ? theirs.bestVerdict : mine.bestVerdict,
    followUpsPassed: Math.max(mine.followUpsPassed, theirs.followUpsPassed),
    followUpsTotal: Math.max(mine.followUpsTotal, theirs.followUpsTotal),
  };
  const hints = Math.max(mine.hintsUsed ?? 0, theirs.hintsUsed ?? 0);
  if (hints > 0) merged.hintsUsed = hints;
  const viewed = earliest(mine.solutionViewed, theirs.solutionViewed);
  if (viewed) {
    merged.solutionViewed = viewed;
    merged.solutionViewedBeforeAccepted = Boolean(
      mine.solutionViewedBeforeAccepted || theirs.solutionViewedBeforeAccepted,
    );
  }
  const quizzes = [mine.quiz, theirs.quiz].filter((q) => q !== undefined);
  if (quizzes.length > 0) {
    const newest = quizzes.reduce((a, b) => (a.at >= b.at ? a : b));
    merged.quiz = { ...newest, best: Math.max(...quizzes.map((q) => q.best)) };
  }
  return merged;
}

/** Merges an imported record into this one; neither loses what it knew. */
export function mergeProgress(into: Progress, from: Progress): Progress {
  const problems = { ...into.problems };
  for (const [dir, theirs] of Object.entries(from.problems)) {
    const mine = problems[dir];
    problems[dir] = mine ? mergeEntry(mine, theirs) : theirs;
  }
  return { version: 1, problems };
}

export function isSolved(progress: Progress, dir: string): boolean {
  return progress.problems[dir]?.bestVerdict === 'accepted';
}
