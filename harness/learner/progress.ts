// The learner's progress: one JSON file, keyed by problem folder name. Writes are atomic (temporary
// file, then rename), and a file that cannot be read is moved aside rather than lost or trusted.
// Commands change it with updateProgress, which reads, changes and writes it under a lock, so that
// commands running at the same time cannot lose each other's updates.
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ProblemReport, Verdict } from '../judge/outcome.ts';
import { STATE_DIR } from '../paths.ts';
import { readRegularFile, shownPath, sizeText } from '../read-file.ts';
import { escapeControl } from '../escape.ts';
import { ensureDir, reason, removeQuietly, StateError, withLock } from './state.ts';
import { isInterviewRecord, type InterviewRecord } from './interview-record.ts';

export const PROGRESS_FILE = path.join(STATE_DIR, 'progress.json');

/** A progress file larger than this is not read (it would be some 50,000 problems' worth). */
export const MAX_PROGRESS_BYTES = 10 * 1024 * 1024;

export interface ProblemProgress {
  firstAttempted: string;
  firstAccepted: string | null;
  lastAttempted: string;
  attempts: number;
  bestVerdict: Verdict;
  /**
   * The verdict of the latest judgement: where the learner stands now, which may be worse than the
   * best (solved once, broken since). Absent from records written before it was kept.
   */
  lastVerdict?: Verdict;
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
  /** Mock interviews taken (`npm run interview`), oldest first; absent until the first. */
  interviews?: InterviewRecord[];
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

/**
 * No more passed than there are: a suite or a quiz that has since lost follow-ups or questions
 * would otherwise leave an old best above the new total, which no import would take.
 */
function settle(entry: ProblemProgress): ProblemProgress {
  entry.followUpsPassed = Math.min(entry.followUpsPassed, entry.followUpsTotal);
  if (entry.quiz && entry.quiz.best > entry.quiz.total) {
    entry.quiz = { ...entry.quiz, best: entry.quiz.total };
  }
  return entry;
}

export function emptyProgress(): Progress {
  return { version: 1, problems: {} };
}

function isProgress(value: unknown): value is Progress {
  const v = value as Progress;
  return (
    typeof v === 'object' &&
    v !== null &&
    v.version === 1 &&
    typeof v.problems === 'object' &&
    v.problems !== null &&
    (v.interviews === undefined ||
      (Array.isArray(v.interviews) && v.interviews.every(isInterviewRecord))) &&
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
        (p.lastVerdict === undefined || Object.hasOwn(RANK, p.lastVerdict)) &&
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

/**
 * Reads progress. A missing file is an empty record. A corrupt one (not JSON, not a record, larger
 * than MAX_PROGRESS_BYTES) is moved aside with a warning, and an empty record returned. Something
 * that is not a regular file (a folder, a pipe, a link to /dev/zero) is never read, moved or removed:
 * when `forUpdate` it stops the command (nothing could be saved over it), otherwise it is a warning.
 */
function readProgress(warn: (message: string) => void, file: string, forUpdate: boolean): Progress {
  let read;
  try {
    read = readRegularFile(file, MAX_PROGRESS_BYTES);
  } catch (error) {
    throw new StateError(`cannot read your progress in ${shownPath(file)}: ${reason(error)}`);
  }
  if (read.kind === 'missing') return emptyProgress();
  if (read.kind === 'not-regular') {
    const problem =
      `${shownPath(file)} is ${read.what}, not a regular file, so your progress cannot be ` +
      `${forUpdate ? 'saved' : 'read'}; it is left as it is: move it away and run the command again.`;
    if (forUpdate) throw new StateError(problem);
    warn(`warning: ${problem}`);
    return emptyProgress();
  }
  let why: string;
  if (read.kind === 'too-big') {
    why = `it is ${sizeText(read.bytes)}, more than the ${sizeText(MAX_PROGRESS_BYTES)} a record can be`;
  } else {
    try {
      const parsed: unknown = JSON.parse(read.text);
      if (isProgress(parsed)) {
        // Written so by an earlier version (see settle): read as this one writes it.
        Object.values(parsed.problems).forEach(settle);
        return parsed;
      }
      why = 'unexpected shape';
    } catch (error) {
      why = (error as Error).message;
    }
  }
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    throw new StateError(
      `${shownPath(file)} could not be read (${escapeControl(why)}), nor moved aside: ` +
        `${reason(error)}; move it away and run the command again.`,
    );
  }
  warn(
    `warning: ${escapeControl(file)} could not be read (${escapeControl(why)}); ` +
      `moved it to ${escapeControl(aside)} and started afresh`,
  );
  return emptyProgress();
}

/** Reads progress; a corrupt file is moved aside (with a warning) and an empty record returned. */
export function loadProgress(warn: (message: string) => void, file = PROGRESS_FILE): Progress {
  return readProgress(warn, file, false);
}

/** Writes progress atomically: a temporary file beside it, then renamed over it. */
export function saveProgress(progress: Progress, file = PROGRESS_FILE): void {
  ensureDir(path.dirname(file), 'your progress');
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(progress, null, 2)}\n`);
    renameSync(temporary, file);
  } catch (error) {
    removeQuietly(temporary);
    throw new StateError(`cannot save your progress in ${shownPath(file)}: ${reason(error)}`);
  }
}

/** Runs `work` holding the progress file's lock (for changes that are not a plain update). */
export function withProgressLock<T>(work: () => T, file = PROGRESS_FILE): T {
  ensureDir(path.dirname(file), 'your progress');
  return withLock(`${file}.lock`, work);
}

/**
 * Reads progress, lets `change` change it, and saves it if it changed, all under the progress lock:
 * a command that saves progress does it here, never by a loadProgress and a saveProgress of its own,
 * which would lose whatever another command saved in between. Returns what `change` returns.
 */
export function updateProgress<T>(
  warn: (message: string) => void,
  change: (progress: Progress) => T,
  file = PROGRESS_FILE,
): T {
  return withProgressLock(() => {
    const progress = readProgress(warn, file, true);
    const before = JSON.stringify(progress);
    const result = change(progress);
    if (JSON.stringify(progress) !== before) saveProgress(progress, file);
    return result;
  }, file);
}

export interface RecordOptions {
  /**
   * The file judged is the stub as shipped, untouched: judging it is no attempt. No entry is made
   * for it, and one made before (the learner reset their file) only learns where they stand now.
   */
  untouched?: boolean;
}

export function recordReport(
  progress: Progress,
  report: ProblemReport,
  now = new Date(),
  options: RecordOptions = {},
): void {
  const at = now.toISOString();
  const previous = progress.problems[report.dir];
  // A verdict kept from the last grade (nothing was judged) is no new attempt.
  if (report.reused && previous?.lastVerdict === report.verdict) return;
  if (options.untouched && report.verdict === 'not-started') {
    if (previous) previous.lastVerdict = report.verdict;
    return;
  }
  const accepted = report.verdict === 'accepted';
  const better = !previous || RANK[report.verdict] < RANK[previous.bestVerdict];
  progress.problems[report.dir] = settle({
    // Hints, solution views and quiz scores are not the judge's to change.
    ...previous,
    firstAttempted: previous?.firstAttempted ?? at,
    firstAccepted: previous?.firstAccepted ?? (accepted ? at : null),
    lastAttempted: at,
    attempts: (previous?.attempts ?? 0) + (report.verdict === 'not-started' ? 0 : 1),
    bestVerdict: better ? report.verdict : previous.bestVerdict,
    lastVerdict: report.verdict,
    followUpsPassed: Math.max(previous?.followUpsPassed ?? 0, report.followUps.passed),
    followUpsTotal: report.followUps.total,
  });
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
  // Where the learner stands now is what the later of the two judged last (if it says).
  const later = theirs.lastAttempted > mine.lastAttempted ? theirs : mine;
  if (later.lastVerdict !== undefined) merged.lastVerdict = later.lastVerdict;
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
  return settle(merged);
}

/** Merges an imported record into this one; neither loses what it knew. */
export function mergeProgress(into: Progress, from: Progress): Progress {
  const problems = { ...into.problems };
  for (const [dir, theirs] of Object.entries(from.problems)) {
    const mine = problems[dir];
    problems[dir] = mine ? mergeEntry(mine, theirs) : theirs;
  }
  // Interviews are kept whole, each once (by id), in the order they were started.
  const interviews = new Map<string, InterviewRecord>();
  for (const record of [...(into.interviews ?? []), ...(from.interviews ?? [])]) {
    if (!interviews.has(record.id)) interviews.set(record.id, record);
  }
  if (interviews.size === 0) return { version: 1, problems };
  const sorted = [...interviews.values()].sort((a, b) => (a.startedAt < b.startedAt ? -1 : 1));
  return { version: 1, problems, interviews: sorted };
}

export function isSolved(progress: Progress, dir: string): boolean {
  return progress.problems[dir]?.bestVerdict === 'accepted';
}

// --- Checking a record that comes from elsewhere (`progress --import`) -------------------------

/** A count (attempts) may be large; the others (hints, follow-ups, quiz questions) stay small. */
const MAX_ATTEMPTS = 1_000_000;
const MAX_SMALL_COUNT = 1_000;
/** Every problem has a handful of hints (four or five today): a count far past that is no count. */
const MAX_HINTS = 50;
const MAX_PROBLEMS = 1_000;
/** A folder name, as the catalogue makes them: lower-case kebab case. */
const DIR_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_DIR_LENGTH = 100;
/** Dates are compared as strings, so they must be written exactly as toISOString writes them. */
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const EARLIEST_DATE = '2000-01-01T00:00:00.000Z';
/** Another machine's clock may run a little ahead. */
const CLOCK_SLACK_MS = 24 * 60 * 60 * 1000;

type Problems = (field: string, wanted: string, value: unknown) => string;

/**
 * What in one problem's record, each field sound on its own, contradicts another field; undefined
 * when nothing does. Only what this program never writes is refused (see settle): times out of
 * order are taken, since a clock that stepped back leaves them so.
 */
function inconsistency(e: ProblemProgress, at: (field: string) => string): string | undefined {
  if (e.followUpsPassed > e.followUpsTotal) {
    return `${at('followUpsPassed')} (${e.followUpsPassed}) is more than its ${e.followUpsTotal} follow-ups`;
  }
  for (const score of ['best', 'last'] as const) {
    if (e.quiz && e.quiz[score] > e.quiz.total) {
      return `${at(`quiz.${score}`)} (${e.quiz[score]}) is more than its ${e.quiz.total} questions`;
    }
  }
  if (e.hintsUsed !== undefined && e.hintsUsed > MAX_HINTS) {
    return `${at('hintsUsed')} (${e.hintsUsed}) is more hints than any problem has (${MAX_HINTS} at most)`;
  }
  if ((e.bestVerdict === 'accepted') !== (e.firstAccepted !== null)) {
    return e.firstAccepted === null
      ? `${at('firstAccepted')} is null, yet bestVerdict is accepted`
      : `${at('firstAccepted')} is a time, yet bestVerdict is ${e.bestVerdict}, not accepted`;
  }
  if (e.lastVerdict !== undefined && RANK[e.lastVerdict] < RANK[e.bestVerdict]) {
    return `${at('lastVerdict')} (${e.lastVerdict}) is better than bestVerdict (${e.bestVerdict})`;
  }
  if (e.bestVerdict !== 'not-started' && e.attempts === 0) {
    return `${at('attempts')} is 0, yet bestVerdict is ${e.bestVerdict}: judged, it was attempted`;
  }
  if (e.solutionViewedBeforeAccepted === true && !e.solutionViewed) {
    return `${at('solutionViewedBeforeAccepted')} is true, yet solutionViewed has no time`;
  }
  return undefined;
}

/**
 * Checks a record read from a file someone else may have written, as strictly as a judge would: the
 * first thing wrong with it, in words ("problems.933.attempts must be …, not -1"), or undefined when
 * it can be merged as it is. Counts must be whole numbers in range, dates real ISO times between
 * 2000 and tomorrow, folder names as the catalogue makes them, and the fields of a problem must
 * agree with each other (see inconsistency): 50 follow-ups passed of 5 is refused.
 */
export function checkRecord(value: unknown, now = new Date()): string | undefined {
  const latestDate = new Date(now.getTime() + CLOCK_SLACK_MS).toISOString();
  const shown = (v: unknown): string => {
    const text = typeof v === 'string' ? JSON.stringify(v) : String(JSON.stringify(v) ?? v);
    return text.length > 40 ? `${text.slice(0, 39)}…` : text;
  };
  const bad: Problems = (field, wanted, v) =>
    `${escapeControl(field)} must be ${wanted}, not ${escapeControl(shown(v))}`;
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);

  if (!isObject(value)) return `it must be an object, not ${escapeControl(shown(value))}`;
  if (value.version !== 1) return bad('version', '1', value.version);
  if (!isObject(value.problems)) return bad('problems', 'an object', value.problems);
  if (value.interviews !== undefined) {
    const list = value.interviews;
    if (!Array.isArray(list)) return bad('interviews', 'a list', list);
    if (list.length > MAX_PROBLEMS)
      return `it holds ${list.length} interviews, more than ${MAX_PROBLEMS}`;
    const index = list.findIndex((record) => !isInterviewRecord(record));
    if (index !== -1) return `interviews[${index}] is not an interview record`;
  }
  const dirs = Object.keys(value.problems);
  if (dirs.length > MAX_PROBLEMS)
    return `it holds ${dirs.length} problems, more than ${MAX_PROBLEMS}`;
  for (const dir of dirs) {
    if (dir.length > MAX_DIR_LENGTH || !DIR_NAME.test(dir)) {
      return `${escapeControl(shown(dir))} is not a problem folder name (lower-case kebab case)`;
    }
    const at = (field: string): string => `problems.${dir}.${field}`;
    const entry = value.problems[dir];
    if (!isObject(entry)) return bad(`problems.${dir}`, 'an object', entry);
    const count = (
      field: string,
      v: unknown,
      max: number,
      optional = false,
    ): string | undefined => {
      if (optional && v === undefined) return undefined;
      if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max) return undefined;
      return bad(field, `a whole number from 0 to ${max}`, v);
    };
    const date = (field: string, v: unknown, optional = false): string | undefined => {
      if (optional && (v === undefined || v === null)) return undefined;
      const valid =
        typeof v === 'string' &&
        ISO_TIME.test(v) &&
        !Number.isNaN(Date.parse(v)) &&
        new Date(v).toISOString() === v &&
        v >= EARLIEST_DATE &&
        v <= latestDate;
      return valid
        ? undefined
        : bad(field, 'a time like 2026-01-05T14:03:09.123Z, not in the future', v);
    };
    const quiz = entry.quiz;
    const problem =
      date(at('firstAttempted'), entry.firstAttempted) ??
      date(at('lastAttempted'), entry.lastAttempted) ??
      date(at('firstAccepted'), entry.firstAccepted, true) ??
      (entry.firstAccepted === undefined
        ? bad(at('firstAccepted'), 'a time or null', undefined)
        : undefined) ??
      count(at('attempts'), entry.attempts, MAX_ATTEMPTS) ??
      (typeof entry.bestVerdict === 'string' && Object.hasOwn(RANK, entry.bestVerdict)
        ? undefined
        : bad(at('bestVerdict'), `one of ${Object.keys(RANK).join(', ')}`, entry.bestVerdict)) ??
      (entry.lastVerdict === undefined ||
      (typeof entry.lastVerdict === 'string' && Object.hasOwn(RANK, entry.lastVerdict))
        ? undefined
        : bad(at('lastVerdict'), `one of ${Object.keys(RANK).join(', ')}`, entry.lastVerdict)) ??
      count(at('followUpsPassed'), entry.followUpsPassed, MAX_SMALL_COUNT) ??
      count(at('followUpsTotal'), entry.followUpsTotal, MAX_SMALL_COUNT) ??
      count(at('hintsUsed'), entry.hintsUsed, MAX_SMALL_COUNT, true) ??
      date(at('solutionViewed'), entry.solutionViewed, true) ??
      (entry.solutionViewedBeforeAccepted === undefined ||
      typeof entry.solutionViewedBeforeAccepted === 'boolean'
        ? undefined
        : bad(
            at('solutionViewedBeforeAccepted'),
            'true or false',
            entry.solutionViewedBeforeAccepted,
          )) ??
      (quiz === undefined
        ? undefined
        : !isObject(quiz)
          ? bad(at('quiz'), 'an object', quiz)
          : (count(at('quiz.total'), quiz.total, MAX_SMALL_COUNT) ??
            count(at('quiz.best'), quiz.best, MAX_SMALL_COUNT) ??
            count(at('quiz.last'), quiz.last, MAX_SMALL_COUNT) ??
            date(at('quiz.at'), quiz.at)));
    if (problem) return problem;
    const unsound = inconsistency(entry as unknown as ProblemProgress, at);
    if (unsound) return unsound;
  }
  return undefined;
}
