// What an interview shows: the question, the state of every rung, the scorecard, the history, and
// the state as JSON for scripts. Nothing here changes anything.
import path from 'node:path';
import {
  rungPoints,
  SCORE_LABEL,
  type InterviewRecord,
  type RungRecord,
} from '../../harness/learner/interview-record.ts';
import { REPO_ROOT } from '../../harness/paths.ts';
import { escapeControl } from '../../harness/escape.ts';
import type { Style } from '../../harness/terminal/style.ts';
import { fitCell, WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import type { InterviewDef } from './interviews.ts';
import { remainingMs, type OpenInterview, type RungState } from './interview-state.ts';

/** "7:05" from milliseconds (minutes can pass 59: "45:00"). */
export function clock(ms: number): string {
  const seconds = Math.ceil(Math.max(0, ms) / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

/** A path from the repository root, as the learner would open it. */
export function fromRoot(file: string): string {
  const relative = path.relative(REPO_ROOT, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

export function header(state: OpenInterview, now: number, style: Style): string {
  const n = Math.min(state.current + 1, state.rungs.length);
  const mode = state.mode === 'practice' ? ' · practice' : '';
  const paused = state.pausedAt !== null ? ' (paused)' : '';
  return style.bold(
    `Interview · ${state.name}${mode} · question ${n} of ${state.rungs.length} · ` +
      `${clock(remainingMs(state, now))} left${paused}`,
  );
}

/** The interviewer's question, and for a coding rung the file to edit and what its gate needs. */
export function questionLines(
  state: OpenInterview,
  rung: RungState,
  ask: string,
  style: Style,
  carried: boolean,
): string[] {
  const lines = ['', wrap(`Interviewer: “${ask}”`, WIDTH, '  '), ''];
  if (rung.note) lines.push(...wrap(rung.note, WIDTH, '  ').split('\n').map(style.dim), '');
  if (rung.kind === 'code' && rung.file) {
    lines.push(`${style.bold('Your file:')} ${fromRoot(rung.file)}`);
    const gate = ['examples and core cases', ...rung.gate.map((t) => `the ${t} follow-up`)];
    lines.push(style.dim(wrap(`To move on: ${gate.join(' and ')}.`, WIDTH, '  ')));
    if (carried) lines.push(style.dim('Your code from the earlier question is still in it.'));
  }
  return lines;
}

export function keysLine(state: OpenInterview, rung: RungState | undefined): string {
  const keys =
    rung?.kind === 'code'
      ? ['save to judge', 'h hint', 's give up', 'e end', 'q quit']
      : ['a–d answer', 's give up', 'e end', 'q quit'];
  if (state.mode === 'practice') keys.splice(-1, 0, 'p pause');
  return keys.join(' · ');
}

const STATUS_MARK: Record<RungRecord['status'], string> = {
  passed: '✓ passed',
  skipped: '– skipped',
  'timed-out': '✗ timed out',
  current: '▸ current',
  pending: '  pending',
};

function paintStatus(status: RungRecord['status'], text: string, style: Style): string {
  if (status === 'passed') return style.green(text);
  if (status === 'current') return style.bold(text);
  if (status === 'pending') return style.dim(text);
  return style.yellow(text);
}

/** The kata as the learner names it: `933`, `fixed-window-limiter`. */
const kataId = (dir: string): string => dir.replace(/^(\d+)-.*$/, '$1');

/** What a rung's status is called; a discussion answered but not passed was not skipped. */
function statusLabel(rung: RungRecord): { text: string; status: RungRecord['status'] } {
  if (rung.kind === 'discussion' && rung.status === 'skipped' && rung.verdict !== null) {
    return { text: '✗ missed', status: 'timed-out' };
  }
  return { text: STATUS_MARK[rung.status], status: rung.status };
}

/** One line per rung: where it stands, its time, saves and hints. */
function rungTable(
  rungs: RungRecord[],
  style: Style,
  liveMs?: (rung: RungRecord) => number,
): string[] {
  return rungs.map((rung, i) => {
    const ms = liveMs ? liveMs(rung) : rung.ms;
    const counts =
      rung.status === 'pending'
        ? ''
        : `${clock(ms).padStart(5)}  ${count(rung.attempts, rung.kind === 'code' ? 'save' : 'answer')}` +
          `  ${count(rung.hints, 'hint')}`;
    const name = fitCell(escapeControl(rung.id), 18);
    // Padded before it is painted: escape codes must not upset the columns.
    const label = statusLabel(rung);
    const status =
      paintStatus(label.status, label.text, style) + ' '.repeat(12 - label.text.length);
    return `${String(i + 1).padStart(3)}  ${name} ${status} ${counts}`.trimEnd();
  });
}

/** The state after a judgement or on resuming: every rung, and what to do next. */
export function stateLines(state: OpenInterview, now: number, style: Style): string[] {
  const live = (rung: RungRecord): number =>
    rung.status === 'current' ? now - ((rung as RungState).askedAt ?? now) : rung.ms;
  return [header(state, now, style), ...rungTable(state.rungs, style, live)];
}

/** The katas (and quizzes) of the rungs not passed: what to practise next. */
function practiseNext(record: InterviewRecord, def: InterviewDef | undefined): string[] {
  const steps: string[] = [];
  for (const rung of record.rungs) {
    if (rungPoints(rung) === 1) continue;
    const spec = def?.rungs.find((r) => r.id === rung.id);
    if (rung.kind === 'code' && rung.problem) {
      steps.push(`npm run kata ${kataId(rung.problem)}`);
    } else if (spec) {
      const questions = spec.kind === 'discussion' ? spec.questions : spec.without;
      for (const q of questions) if (q.from) steps.push(`npm run quiz ${q.from.id}`);
    }
  }
  return [...new Set(steps)];
}

function scoreText(score: number | null, mode: string): string {
  if (mode === 'practice') return 'none (practice)';
  if (score === null) return 'none (nothing attempted)';
  return `${score}/4 · ${SCORE_LABEL[score]}`;
}

/** The scorecard: each rung in detail, the score beside the learner's own rating, what next. */
export function scorecard(
  record: InterviewRecord,
  def: InterviewDef | undefined,
  style: Style,
): string[] {
  const lines = [
    style.bold(`Scorecard · ${record.name} · ${record.outcome.replace('-', ' ')}`),
    ...rungTable(record.rungs, style),
  ];
  for (const [i, rung] of record.rungs.entries()) {
    const details: string[] = [rung.problem ? kataId(rung.problem) : 'talk'];
    if (rung.kind === 'code' && rung.verdict) details.push(`last verdict ${rung.verdict}`);
    if (rung.kind === 'discussion' && rung.verdict) details.push(`${rung.verdict} right`);
    if (rung.gate.length > 0) details.push(`gate: core + ${rung.gate.join(', ')}`);
    if (rung.traps.length > 0) details.push(`traps named: ${rung.traps.join(', ')}`);
    if (rung.gaveAway) details.push('the last hint gave the idea away');
    // A rung never worked on has nothing to say beyond its kata.
    if (details.length > 1) {
      lines.push(style.dim(wrap(`  ${i + 1}. ${details.join(' · ')}`, WIDTH, '     ')));
    }
  }
  const self = record.selfRating === null ? 'not given' : `${record.selfRating}/4`;
  lines.push(
    '',
    style.bold(`Score: ${scoreText(record.score, record.mode)} · your own rating: ${self}`),
  );
  const next = practiseNext(record, def);
  if (next.length > 0) lines.push('Practise next:', ...next.map((step) => `  ${step}`));
  return lines;
}

/** The state as scripts read it (`--json`); with the record once it is over. */
export function stateJson(
  state: OpenInterview,
  now: number,
  record?: InterviewRecord,
): Record<string, unknown> {
  return {
    interview: state.name,
    mode: state.mode,
    remainingMs: remainingMs(state, now),
    rungs: state.rungs.map((rung) => ({
      id: rung.id,
      kind: rung.kind,
      problem: rung.problem,
      file: rung.file ? fromRoot(rung.file) : null,
      status: rung.status,
      attempts: rung.attempts,
      hints: rung.hints,
      ms: rung.status === 'current' && rung.askedAt !== null ? now - rung.askedAt : rung.ms,
    })),
    score: record?.score ?? null,
    selfRating: record?.selfRating ?? null,
  };
}

/** The score in a few words, for a column: "4 strong hire", "– practice". */
function shortScore(record: InterviewRecord): string {
  if (record.mode === 'practice') return '– practice';
  if (record.outcome === 'abandoned') return '– abandoned';
  if (record.score === null) return '– no attempt';
  return `${record.score} ${SCORE_LABEL[record.score]}`;
}

/** `--history` and `progress`: one line per interview taken (at most 80 columns). */
export function historyLines(records: InterviewRecord[], style: Style): string[] {
  const lines = records.map((r) => {
    const day = escapeControl(r.startedAt.slice(0, 16).replace('T', ' '));
    const self = r.selfRating === null ? '' : `self ${r.selfRating}`;
    const passed = `${r.rungs.filter((rung) => rung.status === 'passed').length}/${r.rungs.length}`;
    const line =
      `${fitCell(day, 16)}  ${fitCell(escapeControl(r.name), 14)} ${fitCell(r.outcome, 10)} ` +
      `${passed.padStart(6)}  ${fitCell(shortScore(r), 14)}  ${self}`;
    return r.outcome === 'abandoned' ? style.dim(line.trimEnd()) : line.trimEnd();
  });
  const heading = `${'started (UTC)'.padEnd(16)}  ${'interview'.padEnd(14)} ${'outcome'.padEnd(10)} passed  ${'score'.padEnd(14)}  own rating`;
  return [style.bold(heading), ...lines];
}
