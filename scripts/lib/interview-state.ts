// An interview in progress: its saved state, and every change to it. The clock is a deadline kept
// in the state (start time plus budget, plus any pause in practice mode), never a count of ticks,
// so a restarted process, a `kill -9` or a machine that slept resumes with the time really left.
// Every change takes the time as an argument: the command passes the wall clock, tests a fake one.
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ProblemReport } from '../../harness/judge/outcome.ts';
import type { Problem } from '../../harness/judge/problems.ts';
import {
  scoreInterview,
  type InterviewMode,
  type InterviewOutcome,
  type InterviewRecord,
  type RungRecord,
} from '../../harness/learner/interview-record.ts';
import { pristineStubFile } from '../../harness/learner/learning.ts';
import { STATE_DIR } from '../../harness/paths.ts';
import { escapeControl } from '../../harness/escape.ts';
import {
  ensureDir,
  reason,
  removeQuietly,
  StateError,
  withLock,
} from '../../harness/learner/state.ts';
import { readRegularFile, shownPath } from '../../harness/read-file.ts';
import type { InterviewDef } from './interviews.ts';

/** Where interviews keep their state and the learner's files: under the state folder, git-ignored. */
export const INTERVIEW_DIR = path.join(STATE_DIR, 'interviews');
export const OPEN_FILE = path.join(INTERVIEW_DIR, 'open.json');
const MAX_STATE_BYTES = 1024 * 1024;

/** Warnings are given when this many minutes are left. */
const WARN_AT_MINUTES = [10, 2];

export interface RungState extends RungRecord {
  /** The learner's file (absolute) for a coding rung, else null. */
  file: string | null;
  /** When the question was asked (wall-clock ms), null while pending. */
  askedAt: number | null;
  /** Discussion: questions answered right so far (`attempts` counts those answered). */
  right: number;
  /** Why a coding rung is asked as a discussion here (no Redis). */
  note?: string;
}

export interface OpenInterview {
  version: 1;
  id: string;
  name: string;
  title: string;
  mode: InterviewMode;
  startedAt: number;
  budgetMs: number;
  /** When time is up: startedAt + budgetMs, plus the pauses of practice mode. */
  deadline: number;
  /** Practice mode: paused since then (the clock stands still), else null. */
  pausedAt: number | null;
  /** The warnings already given (minutes left). */
  warned: number[];
  /** The rung being asked; rungs.length once every rung is left. */
  current: number;
  rungs: RungState[];
  /** The process running it now, so that a second one is refused; null when none is. */
  pid: number | null;
}

/** The learner's file for a kata in this interview: one per kata, so it carries over. */
function rungFile(name: string, problem: Problem): string {
  return path.join(INTERVIEW_DIR, name, `${problem.id}.ts`);
}

export function startInterview(def: InterviewDef, mode: InterviewMode, now: number): OpenInterview {
  const rungs = def.rungs.map((rung, i): RungState => ({
    id: rung.id,
    kind: rung.kind,
    problem: rung.kind === 'code' ? rung.problem.dir : null,
    file: rung.kind === 'code' ? rungFile(def.name, rung.problem) : null,
    status: i === 0 ? 'current' : 'pending',
    askedAt: i === 0 ? now : null,
    ms: 0,
    attempts: 0,
    hints: 0,
    gaveAway: false,
    traps: [],
    verdict: null,
    gate: rung.kind === 'code' ? rung.gate : [],
    right: 0,
  }));
  return {
    version: 1,
    id: `${def.name}@${new Date(now).toISOString()}`,
    name: def.name,
    title: def.title,
    mode,
    startedAt: now,
    budgetMs: def.budgetMs,
    deadline: now + def.budgetMs,
    pausedAt: null,
    warned: [],
    current: 0,
    rungs,
    pid: null,
  };
}

export const currentRung = (state: OpenInterview): RungState | undefined =>
  state.rungs[state.current];

export const isOver = (state: OpenInterview): boolean => state.current >= state.rungs.length;

/** Time left; while paused it stands where the pause began. */
export function remainingMs(state: OpenInterview, now: number): number {
  return Math.max(0, state.deadline - (state.pausedAt ?? now));
}

/** Pauses or resumes the clock (practice mode only); true when now paused. */
export function togglePause(state: OpenInterview, now: number): boolean {
  if (state.pausedAt === null) {
    state.pausedAt = now;
    return true;
  }
  state.deadline += Math.max(0, now - state.pausedAt);
  state.pausedAt = null;
  return false;
}

/** The warnings due now (minutes left), each given once; marked as given. */
export function dueWarnings(state: OpenInterview, now: number): number[] {
  const left = remainingMs(state, now);
  if (left === 0) return [];
  const due = WARN_AT_MINUTES.filter((m) => left <= m * 60_000 && !state.warned.includes(m));
  state.warned.push(...due);
  // Resumed with two minutes left: one warning says it, not two.
  return due.length > 0 ? [Math.min(...due)] : [];
}

/** Whether a report passes a rung's gate: accepted (examples and core), and its follow-ups. */
function passesGate(report: ProblemReport, gate: string[]): boolean {
  if (report.verdict !== 'accepted') return false;
  return gate.every((trap) => {
    const cases = report.cases.filter((c) => c.tier === 'follow-up' && c.trap === trap);
    return cases.length > 0 && cases.every((c) => c.status === 'passed');
  });
}

/** Leaves the current rung with `status`; the next one is asked at once. */
export function leaveRung(state: OpenInterview, status: RungRecord['status'], now: number): void {
  const rung = currentRung(state);
  if (!rung) return;
  rung.status = status;
  rung.ms = Math.max(0, now - (rung.askedAt ?? now));
  state.current += 1;
  const next = currentRung(state);
  if (next) {
    next.status = 'current';
    next.askedAt = now;
  }
}

/**
 * Takes a judgement of the current rung's file: counted as a save unless the file is the stub as
 * shipped, the traps its report leads with are kept, and a passed gate moves on. True if it did.
 */
export function recordJudgement(
  state: OpenInterview,
  report: ProblemReport,
  untouched: boolean,
  now: number,
): boolean {
  const rung = currentRung(state);
  if (!rung || rung.kind !== 'code' || report.cancelled) return false;
  if (untouched) return false;
  rung.attempts += 1;
  rung.verdict = report.verdict;
  for (const trap of report.diagnosis?.traps ?? []) {
    if (!rung.traps.includes(trap)) rung.traps.push(trap);
  }
  if (!passesGate(report, rung.gate)) return false;
  leaveRung(state, 'passed', now);
  return true;
}

/** A discussion question answered; the rung is left, passed or not, after its last question. */
export function recordAnswer(
  state: OpenInterview,
  right: boolean,
  total: number,
  now: number,
): void {
  const rung = currentRung(state);
  if (!rung) return;
  rung.attempts += 1;
  if (right) rung.right += 1;
  rung.verdict = `${rung.right}/${total}`;
  // Two thirds right passes: two of three.
  if (rung.attempts >= total)
    leaveRung(state, rung.right * 3 >= total * 2 ? 'passed' : 'skipped', now);
}

/** A hint shown on the current rung; `last` when it was the last of the kata's hints. */
export function recordHint(state: OpenInterview, last: boolean): void {
  const rung = currentRung(state);
  if (!rung) return;
  rung.hints += 1;
  if (last) rung.gaveAway = true;
}

/** Ends the interview: the rung being asked, and (time up) those never reached, are closed. */
export function endInterview(state: OpenInterview, outcome: InterviewOutcome, now: number): void {
  const rung = currentRung(state);
  if (rung) {
    rung.status = outcome === 'time-up' ? 'timed-out' : 'skipped';
    rung.ms = Math.max(0, now - (rung.askedAt ?? now));
  }
  if (outcome === 'time-up') {
    for (const later of state.rungs.slice(state.current + 1)) later.status = 'timed-out';
  }
  state.current = state.rungs.length;
}

/** The record kept in progress. */
export function toRecord(
  state: OpenInterview,
  outcome: InterviewOutcome,
  selfRating: number | null,
  now: number,
): InterviewRecord {
  const rungs = state.rungs.map((rung): RungRecord => ({
    id: rung.id,
    kind: rung.kind,
    problem: rung.problem,
    status: rung.status,
    ms: rung.ms,
    attempts: rung.attempts,
    hints: rung.hints,
    gaveAway: rung.gaveAway,
    traps: rung.traps,
    verdict: rung.verdict,
    gate: rung.gate,
  }));
  return {
    id: state.id,
    name: state.name,
    title: state.title,
    mode: state.mode,
    outcome,
    startedAt: new Date(state.startedAt).toISOString(),
    endedAt: new Date(now).toISOString(),
    budgetMs: state.budgetMs,
    score: outcome === 'abandoned' ? null : scoreInterview(state.mode, rungs),
    selfRating,
    rungs,
  };
}

// --- Files --------------------------------------------------------------------------------------

/** The stub as shipped, copied in if the learner's file is not there yet (a kata asked again keeps it). */
export function ensureRungFile(file: string, problem: Problem): boolean {
  if (existsSync(file)) return false;
  ensureDir(path.dirname(file), 'your interview files');
  copyFileSync(pristineStubFile(problem), file);
  return true;
}

/** Whether the learner's file is still the stub as shipped: no attempt, never a score. */
export function isUntouchedStub(file: string, problem: Problem): boolean {
  try {
    const pristine = readFileSync(pristineStubFile(problem), 'utf8');
    const read = readRegularFile(file, Buffer.byteLength(pristine));
    return read.kind === 'text' && read.text === pristine;
  } catch {
    return false;
  }
}

/** A fresh workspace: files of an earlier run of the same interview are moved aside, not lost. */
export function freshWorkspace(name: string, now: number): void {
  const dir = path.join(INTERVIEW_DIR, name);
  if (existsSync(dir)) {
    const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
    renameSync(dir, `${dir}.${stamp}`);
  }
  ensureDir(dir, 'your interview files');
}

function isOpenInterview(v: unknown): v is OpenInterview {
  const s = v as OpenInterview;
  return (
    typeof s === 'object' &&
    s !== null &&
    s.version === 1 &&
    typeof s.id === 'string' &&
    typeof s.name === 'string' &&
    typeof s.title === 'string' &&
    (s.mode === 'interview' || s.mode === 'practice') &&
    [s.startedAt, s.budgetMs, s.deadline, s.current].every(Number.isFinite) &&
    (s.pausedAt === null || Number.isFinite(s.pausedAt)) &&
    Array.isArray(s.warned) &&
    Array.isArray(s.rungs) &&
    s.rungs.every((r) => typeof r === 'object' && r !== null && typeof r.id === 'string')
  );
}

/**
 * The interview in progress, if any. A damaged state file is moved aside with one line, and the
 * learner starts afresh: nothing else is lost (their files and progress stay where they are).
 */
export function readOpen(
  warn: (line: string) => void,
  file = OPEN_FILE,
): OpenInterview | undefined {
  const read = readRegularFile(file, MAX_STATE_BYTES);
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'text') {
    try {
      const parsed: unknown = JSON.parse(read.text);
      if (isOpenInterview(parsed)) return parsed;
    } catch {
      // Moved aside below.
    }
  }
  const aside = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    throw new StateError(
      `${shownPath(file)} is damaged and cannot be moved aside: ${reason(error)}`,
    );
  }
  warn(`warning: the saved interview was damaged; moved it to ${escapeControl(aside)}`);
  return undefined;
}

export function saveOpen(state: OpenInterview, file = OPEN_FILE): void {
  ensureDir(path.dirname(file), 'your interview');
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`);
    renameSync(temporary, file);
  } catch (error) {
    removeQuietly(temporary);
    throw new StateError(`cannot save your interview in ${shownPath(file)}: ${reason(error)}`);
  }
}

export function removeOpen(file = OPEN_FILE): void {
  rmSync(file, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process running the interview now, other than this one; a killed one does not count. */
export function otherRunner(state: OpenInterview): number | undefined {
  const pid = state.pid;
  return pid !== null && pid !== process.pid && isAlive(pid) ? pid : undefined;
}

/** Reads, changes and saves the open interview under a lock (two terminals, one interview). */
export function withOpenLock<T>(work: () => T, file = OPEN_FILE): T {
  ensureDir(path.dirname(file), 'your interview');
  return withLock(`${file}.lock`, work);
}
