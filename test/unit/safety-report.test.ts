// Nothing a solution prints or throws reaches the terminal raw: control characters in its output,
// messages, stack, source lines and values are shown escaped, so they cannot clear the screen, move
// the cursor, ring the bell or write a fake verdict over the real one.
import { describe, expect, test } from 'vitest';
import type { CallRecord, CaseResult, ProblemReport } from '../../harness/judge/outcome.ts';
import { findProblem, loadProblems } from '../../harness/judge/problems.ts';
import { escapeControl, shownArgument } from '../../harness/escape.ts';
import { formatReport } from '../../harness/terminal/report.ts';
import { colorEnabled, makeStyle } from '../../harness/terminal/style.ts';
import { stripAnsi } from '../../harness/terminal/wrap.ts';

const problem = findProblem(loadProblems(), '933')!;
/** Every C0 control but the line feed, DEL, and every C1 control. */
// eslint-disable-next-line no-control-regex -- finding raw control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

const NASTY = '\x1b[2J\x1b[H\rAccepted\x07\x1b]0;pwned\x07\x9b31m\x7f\b';

function call(values: Partial<CallRecord> = {}): CallRecord {
  return { index: 0, method: 'ping', args: '1', expected: '1', actual: '1', ok: true, ...values };
}

function failing(values: Partial<CaseResult> = {}): CaseResult {
  return {
    name: 'a case',
    tier: 'example',
    trap: 'some-trap',
    hint: 'a hint',
    status: 'runtime-error',
    ms: 1,
    ...values,
  };
}

function report(values: Partial<ProblemReport> = {}): ProblemReport {
  return {
    dir: problem.dir,
    verdict: 'runtime-error',
    cases: [],
    followUps: { passed: 0, total: 0 },
    output: '',
    ms: 5,
    ...values,
  };
}

/** Every way learner-derived text reaches a report, each carrying the nasty bytes. */
const poisoned = report({
  output: `hello${NASTY}\nsecond line\r\n\tthird${NASTY}\n`,
  cases: [
    failing({
      message: `Error: boom${NASTY}\nAccepted\x1b[0m`,
      stack: `at RecentCounter.ping (solution.ts:3:7)${NASTY}\nat next${NASTY}`,
      input: `minimal counterexample ${NASTY}`,
      calls: [
        call({
          method: `ping${NASTY}`,
          args: `"${NASTY}"`,
          expected: `1${NASTY}`,
          actual: `Error: ${NASTY}`,
          ok: false,
        }),
      ],
      divergedAt: 0,
      totalCalls: 1,
    }),
  ],
});

const compileError = report({
  verdict: 'compile-error',
  message: `solution.ts:1:5: Expected ";"\n  1 | let ${NASTY} = 1;\n    |     ^`,
});

describe('escapeControl', () => {
  test('shows ESC, CR, BEL, DEL and C1 controls as escapes, on one line', () => {
    expect(escapeControl('a\x1b[2Jb\rc\x07d\x7fe\x9bf\ng\th')).toBe(
      'a\\x1b[2Jb\\rc\\x07d\\x7fe\\x9bf\\ng\\th',
    );
  });

  test('multi-line text keeps its line breaks; CRLF is a line break, tabs become spaces', () => {
    expect(escapeControl('a\x1b[2J\r\nb\tc\rd\n', { multiline: true })).toBe(
      'a\\x1b[2J\nb       c\\rd\n',
    );
  });

  test('text without controls comes back as it is', () => {
    expect(escapeControl('plain text, ünïcode — fine')).toBe('plain text, ünïcode — fine');
  });

  test('characters that reverse or break lines are escaped too', () => {
    expect(escapeControl('abc\u202edef\u2028')).toBe('abc\\u202edef\\u2028');
  });

  test('an argument is cut to 60 characters with an ellipsis, escaped', () => {
    expect(shownArgument('x'.repeat(5000))).toBe(`${'x'.repeat(59)}…`);
    expect(shownArgument('x'.repeat(60))).toBe('x'.repeat(60));
    expect(shownArgument('a\x1b[2Jb')).toBe('a\\x1b[2Jb');
  });
});

describe('a report of learner output, messages, stack and values with control characters', () => {
  test('holds none of them raw, without colour (NO_COLOR)', () => {
    expect(colorEnabled(true, { NO_COLOR: '1' })).toBe(false);
    const style = makeStyle(colorEnabled(true, { NO_COLOR: '1' }));
    for (const r of [poisoned, compileError]) {
      const text = formatReport(problem, r, { reveal: true, style });
      expect(text).not.toMatch(RAW_CONTROL);
    }
  });

  test('shows them escaped, where they were', () => {
    const text = formatReport(problem, poisoned, { reveal: true, style: makeStyle(false) });
    expect(text).toContain('hello\\x1b[2J\\x1b[H\\rAccepted\\x07');
    expect(text).toContain('Error: boom\\x1b[2J');
    // Long lines are wrapped: compare without the breaks.
    expect(text.replace(/\s+/g, '')).toContain('atRecentCounter.ping(solution.ts:3:7)\\x1b[2J');
    // The message's second line stays indented under the first: it cannot pose as a verdict.
    expect(text).toMatch(/^ {4}Accepted\\x1b\[0m$/m);
    expect(text).not.toMatch(/^Accepted/m);
    // Multi-line output keeps its lines; the tab is spaces.
    expect(text).toMatch(/^ {2}second line$/m);
    expect(text).toMatch(/^ {2} {8}third\\x1b\[2J/m);
    const compile = formatReport(problem, compileError, {
      reveal: false,
      style: makeStyle(false),
    });
    expect(compile).toContain('1 | let \\x1b[2J\\x1b[H\\rAccepted\\x07');
  });

  test('with colour on, the only escape codes are the judge’s own colours', () => {
    const text = formatReport(problem, poisoned, { reveal: true, style: makeStyle(true) });
    expect(text).toContain('\x1b[31m');
    expect(stripAnsi(text)).not.toMatch(RAW_CONTROL);
  });
});
