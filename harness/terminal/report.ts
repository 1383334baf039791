// Turns a ProblemReport into what the learner reads in a terminal: the verdict, then each case that
// did not pass with what it teaches, then the follow-ups, then what their code printed. Whatever the
// learner's code produced (its output, messages, stack, source lines, values) is shown escaped, so
// that nothing it prints or throws can clear the screen, move the cursor or fake a verdict line.
import type {
  CallRecord,
  CaseResult,
  CaseStatus,
  ProblemReport,
  Verdict,
} from '../judge/outcome.ts';
import { SAME_ERROR } from '../judge/diagnose.ts';
import { cut } from '../judge/format-value.ts';
import type { Problem } from '../judge/problems.ts';
import { escapeControl } from '../escape.ts';
import type { Style } from './style.ts';
import { visibleLength, WIDTH, wrap } from './wrap.ts';
import { plural } from './plural.ts';
import { drawPicture } from './picture.ts';

export const VERDICT_LABEL: Record<Verdict, string> = {
  accepted: 'Accepted',
  'wrong-answer': 'Wrong Answer',
  'time-limit-exceeded': 'Time Limit Exceeded',
  'memory-limit-exceeded': 'Memory Limit Exceeded',
  'runtime-error': 'Runtime Error',
  'compile-error': 'Compile Error',
  'not-started': 'Not Started',
};

const STATUS_LABEL: Record<CaseStatus, string> = {
  passed: 'passed',
  failed: 'wrong answer',
  'time-limit-exceeded': 'time limit exceeded',
  'memory-limit-exceeded': 'memory limit exceeded',
  'runtime-error': 'runtime error',
  skipped: 'skipped',
};

/** Lines of learner output shown at most. */
const OUTPUT_LINES = 12;

export function paintVerdict(verdict: Verdict, style: Style): string {
  const label = VERDICT_LABEL[verdict];
  if (verdict === 'accepted') return style.green(style.bold(label));
  if (verdict === 'not-started') return style.yellow(label);
  return style.red(style.bold(label));
}

function deciding(report: ProblemReport): CaseResult[] {
  return report.cases.filter((c) => c.tier !== 'follow-up');
}

export function casesPassed(report: ProblemReport): { passed: number; total: number } {
  const cases = deciding(report);
  return { passed: cases.filter((c) => c.status === 'passed').length, total: cases.length };
}

/** Breaks prose to the screen's width, then paints each line (so no colour spans a line break). */
function wrapPainted(text: string, indent: string, paint: (s: string) => string): string[] {
  return wrap(text, WIDTH, indent).split('\n').map(paint);
}

export function headline(problem: Problem, report: ProblemReport, style: Style): string {
  const cases = casesPassed(report);
  const f = report.followUps;
  const title = `${style.bold(`${problem.id} · ${problem.title}`)} — ${paintVerdict(report.verdict, style)}`;
  const counts = `(cases ${cases.passed}/${cases.total} · follow-ups ${f.passed}/${f.total} · ${report.ms} ms)`;
  // Long titles push the counts past the screen's edge: they go on a line of their own.
  const oneLine = visibleLength(title) + 2 + counts.length <= WIDTH;
  return `${title}${oneLine ? '  ' : '\n  '}${style.dim(counts)}`;
}

/** Learner-derived text meant for one line: every control character, line breaks too, escaped. */
const oneLine = (text: string): string => escapeControl(text);
/** Learner-derived text of several lines: line breaks kept, every other control character escaped. */
const textLines = (text: string): string[] => escapeControl(text, { multiline: true }).split('\n');

/** Expected or actual values wider than this get lines of their own under the call. */
const VALUE_COLUMN = 14;

function callLine(
  call: CallRecord,
  diverged: boolean,
  noteWidth: number,
  style: Style,
  instances: boolean,
  reveal: boolean,
): string[] {
  // Values come in full: cut short unless the learner asked to see everything.
  const shown = (text: string): string => oneLine(reveal ? text : cut(text));
  const note = noteWidth > 0 ? `${oneLine(call.note ?? '').padEnd(noteWidth)} ` : '';
  // Calls to several instances, interleaved: each says which instance it went to.
  const to = instances ? `[${call.target ?? 0}] ` : '';
  const text = call.step
    ? `${note}${oneLine(call.method)}${call.args ? `: ${shown(call.args)}` : ''}`
    : `${note}${to}${oneLine(call.method)}(${shown(call.args)})`;
  const mark = diverged ? style.red('→') : ' ';
  // A call that answers nothing (a constructor, a void method, a fixture's move) shows a dash.
  const nothing = (value: string): string =>
    call.ok && call.expected === 'null' && (value === 'null' || value === 'undefined')
      ? '—'
      : value;
  const expected = nothing(shown(call.expected));
  const actual = nothing(shown(call.actual));
  const paint = (value: string): string => (call.ok ? value : style.red(value));
  const head = `  ${mark} ${String(call.index).padStart(4)}  `;
  // A scenario's own step may be long text: it gets the layout of long values rather than pushing
  // the columns out of line.
  const fits = !call.step || text.length <= 28 + (note ? noteWidth + 1 : 0);
  if (fits && expected.length <= VALUE_COLUMN && actual.length <= VALUE_COLUMN + 8) {
    // Long arguments continue under the call rather than past the screen's edge.
    return [
      wrap(
        `${head}${text.padEnd(28 + (note ? noteWidth + 1 : 0))} ${expected.padEnd(VALUE_COLUMN)} ${paint(actual)}`,
        WIDTH,
        ' '.repeat(10),
      ),
    ];
  }
  // Objects (a limiter's answer) do not fit in a column: expected and actual go on lines of their
  // own, one above the other, with the fields that differ named.
  const lines = [wrap(`${head}${text}`, WIDTH, ' '.repeat(10))];
  // A scenario's note (a wait, a fault) says what happened, and expects nothing.
  if (call.step && call.expected === '' && call.actual === '') return lines;
  if (call.ok && expected === actual) {
    lines.push(wrap(`          ${style.dim('→')} ${actual}`, WIDTH, ' '.repeat(12)));
    return lines;
  }
  lines.push(wrap(`          expected ${expected}`, WIDTH, ' '.repeat(19)));
  lines.push(wrap(`          actual   ${paint(actual)}`, WIDTH, ' '.repeat(19)));
  if (call.differences && call.differences.length > 0) {
    // The answers were cut short: the fields that differ, each in full (up to its own cut).
    for (const { field, expected: want, actual: got } of call.differences) {
      lines.push(style.red(`          differs: ${oneLine(field)}`));
      lines.push(wrap(`            expected ${shown(want)}`, WIDTH, ' '.repeat(21)));
      lines.push(wrap(`            actual   ${paint(shown(got))}`, WIDTH, ' '.repeat(21)));
    }
  } else if (call.fields && call.fields.length > 0) {
    lines.push(style.red(`          differs: ${call.fields.map(oneLine).join(', ')}`));
  }
  return lines;
}

/** The calls of a case with expected against actual and the first difference marked. */
export function callTable(
  result: CaseResult,
  style: Style,
  whole = true,
  reveal = false,
): string[] {
  const calls = result.calls ?? [];
  if (calls.length === 0) return [];
  // What fixtures say (a clock's time) gets a column of its own, before the call.
  const noteWidth = Math.min(16, Math.max(0, ...calls.map((c) => oneLine(c.note ?? '').length)));
  const noteHead = noteWidth > 0 ? `${'time'.padEnd(noteWidth)} ` : '';
  const instances = calls.some((c) => c.target !== undefined);
  const lines = [
    style.dim(
      `       #  ${noteHead}${'call'.padEnd(28)} ${'expected'.padEnd(VALUE_COLUMN)} actual`,
    ),
  ];
  let previous: number | undefined;
  for (const call of calls) {
    if (previous !== undefined && call.index > previous + 1) lines.push(style.dim('         …'));
    else if (previous === undefined && call.index > 0)
      lines.push(style.dim(`         … ${plural(call.index, 'call')} before`));
    const diverged = call.index === result.divergedAt;
    lines.push(...callLine(call, diverged, noteWidth, style, instances, reveal));
    previous = call.index;
  }
  const total = result.totalCalls ?? calls.length;
  const last = calls[calls.length - 1];
  if (whole && last && last.index < total - 1)
    lines.push(style.dim(`         … (stopped here; ${plural(total, 'call')} run)`));
  return lines;
}

/** One line for a failure put down to another cause: what failed, and why it is not shown in full. */
function briefCase(result: CaseResult, style: Style, indent: string): string {
  const trap = result.trap ? style.dim(` [${result.trap}]`) : '';
  const why = result.because ? style.dim(` · ${result.because}`) : '';
  return wrap(
    `${indent}${style.red('✗')} ${result.tier} · ${result.name}${trap} — ${style.red(STATUS_LABEL[result.status])}${why}`,
    WIDTH,
    `${indent}    `,
  );
}

/**
 * The brief lines of failures put down to other causes; those that threw the same exception as a
 * case shown above collapse into one line that names them.
 */
function briefCases(results: CaseResult[], style: Style, indent: string): string[] {
  const same = results.filter((r) => r.because === SAME_ERROR);
  const lines = results
    .filter((r) => r.because !== SAME_ERROR)
    .map((r) => briefCase(r, style, indent));
  if (same.length > 0) {
    const names = same.map((r) => r.name).join(', ');
    const cases = same.length === 1 ? 'case' : `${same.length} cases`;
    lines.push(
      wrap(
        `${indent}${style.red('✗')} the same error also hit ${cases}: ${names}`,
        WIDTH,
        `${indent}  `,
      ),
    );
  }
  return lines;
}

/** Whether a failure is shown in full: a root cause, or every failure when asked (or undiagnosed). */
function inFull(report: ProblemReport, result: CaseResult, verbose: boolean): boolean {
  return verbose || report.diagnosis === undefined || result.lead === true;
}

function describeCase(result: CaseResult, reveal: boolean, style: Style): string[] {
  const trap = result.trap ? style.dim(` [${result.trap}]`) : '';
  const status =
    result.status === 'skipped'
      ? style.dim(STATUS_LABEL.skipped)
      : style.red(STATUS_LABEL[result.status]);
  const out = [
    wrap(`${style.red('✗')} ${result.tier} · ${result.name}${trap} — ${status}`, WIDTH, '  '),
  ];
  if (result.because) out.push(style.dim(wrap(`  (${result.because})`, WIDTH, '   ')));
  // A thrown message may run over several lines: each goes on under the first, indented.
  if (result.message) {
    textLines(result.message).forEach((l, i) =>
      out.push(wrap(`${i === 0 ? '  ' : '    '}${l}`, WIDTH, '    ')),
    );
  }
  if (result.stack) {
    for (const l of textLines(result.stack))
      out.push(...wrapPainted(`    ${l}`, '      ', style.dim));
  }
  const hidden = result.tier !== 'example';
  if (hidden && result.hint) {
    out.push(wrap(`  ${style.yellow('Hint:')} ${result.hint}`, WIDTH, '        '));
  }
  // A case stricter than LeetCode on purpose: a solution LeetCode accepts can fail it.
  if (result.beyondLeetCode && result.status !== 'skipped') {
    out.push(style.dim("  LeetCode's own tests miss this; an interviewer may not."));
  }
  const showCalls = !hidden || reveal || result.input?.startsWith('minimal counterexample');
  if (showCalls) {
    if (result.input)
      out.push(...wrapPainted(`  input: ${oneLine(result.input)}`, '         ', style.dim));
    out.push(...callTable(result, style, true, reveal));
  } else if (result.calls && result.calls.length > 0) {
    // The first call that went wrong, as LeetCode shows the failing input; the rest stay hidden.
    const first = result.calls.filter((c) => c.index === result.divergedAt);
    if (first.length > 0) out.push(...callTable({ ...result, calls: first }, style, false));
    out.push(style.dim('  (run with -- --reveal to see all its calls, expected and actual)'));
  }
  // Time around the wrong call, as the suite says to draw it.
  if (result.picture) out.push('', ...drawPicture(result.picture, style));
  return out;
}

/** What the learner's code printed, cut to a few lines, each cut to the screen's width. */
function shortenOutput(output: string): string[] {
  const room = WIDTH - 2;
  const fit = (l: string): string => (l.length > room ? `${l.slice(0, room - 1)}…` : l);
  const shown = textLines(output.trimEnd()).map(fit);
  if (shown.length <= OUTPUT_LINES) return shown;
  return [...shown.slice(0, OUTPUT_LINES), `… ${shown.length - OUTPUT_LINES} more lines`];
}

/** The full report of one problem, as printed by `kata` (and by `grade` for a single problem). */
export function formatReport(
  problem: Problem,
  report: ProblemReport,
  options: { reveal: boolean; style: Style; verbose?: boolean },
): string {
  const { style, reveal } = options;
  const verbose = options.verbose ?? false;
  const lines = [headline(problem, report, style)];
  if (report.message) {
    // A compile error quotes the learner's source line: escaped like everything else of theirs.
    lines.push('', ...textLines(report.message).map((l) => wrap(`  ${l}`, WIDTH, '    ')));
  }
  if (report.verdict === 'not-started') {
    lines.push('', `  Open the stub and replace the "Not implemented" errors with your solution.`);
  }
  const failing = deciding(report).filter((c) => c.status !== 'passed');
  if (
    report.verdict !== 'not-started' &&
    report.verdict !== 'compile-error' &&
    failing.length > 0
  ) {
    lines.push('');
    const brief = failing.filter((r) => !inFull(report, r, verbose));
    for (const result of failing) {
      if (inFull(report, result, verbose)) lines.push(...describeCase(result, reveal, style), '');
    }
    if (brief.length > 0)
      lines.push(style.bold('Also failing:'), ...briefCases(brief, style, '  '), '');
  }
  const followUps = report.cases.filter((c) => c.tier === 'follow-up');
  if (
    followUps.length > 0 &&
    report.verdict !== 'not-started' &&
    report.verdict !== 'compile-error'
  ) {
    lines.push(style.bold(`Follow-ups ${report.followUps.passed}/${report.followUps.total}`));
    const brief: CaseResult[] = [];
    for (const result of followUps) {
      if (result.status === 'passed') {
        lines.push(
          wrap(
            `${style.green('✓')} ${result.name}${style.dim(` [${result.trap}] ${result.ms} ms`)}`,
            WIDTH,
            '  ',
          ),
        );
      } else if (inFull(report, result, verbose)) {
        lines.push(...describeCase(result, reveal, style));
      } else {
        brief.push(result);
      }
    }
    lines.push(...briefCases(brief, style, ''));
  }
  if (report.output.trim()) {
    lines.push(
      '',
      style.bold('Your code printed (shortened):'),
      ...shortenOutput(report.output).map((l) => style.dim(`  ${l}`)),
    );
  }
  return lines.join('\n');
}
