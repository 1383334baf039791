// What the learner reads: a ProblemReport rendered for a terminal.
import { describe, expect, test } from 'vitest';
import type { CallRecord, CaseResult, ProblemReport } from '../../harness/judge/outcome.ts';
import { findProblem, loadProblems } from '../../harness/judge/problems.ts';
import {
  callTable,
  casesPassed,
  formatReport,
  headline,
  paintVerdict,
  VERDICT_LABEL,
} from '../../harness/terminal/report.ts';
import { makeStyle } from '../../harness/terminal/style.ts';

const problem = findProblem(loadProblems(), '933')!;
const plain = makeStyle(false);
const colour = makeStyle(true);

function call(index: number, ok = true, values: Partial<CallRecord> = {}): CallRecord {
  return {
    index,
    method: 'ping',
    args: String(index * 1000),
    expected: String(index),
    actual: ok ? String(index) : String(index + 1),
    ok,
    ...values,
  };
}

function result(values: Partial<CaseResult> = {}): CaseResult {
  return {
    name: 'a case',
    tier: 'core',
    trap: 'some-trap',
    hint: 'Think about the ends of the range.',
    status: 'passed',
    ms: 3,
    ...values,
  };
}

function report(values: Partial<ProblemReport> = {}): ProblemReport {
  return {
    dir: problem.dir,
    verdict: 'accepted',
    cases: [],
    followUps: { passed: 0, total: 0 },
    output: '',
    ms: 42,
    ...values,
  };
}

const render = (r: ProblemReport, reveal = false): string =>
  formatReport(problem, r, { reveal, style: plain });

const exampleFailure = result({
  name: 'statement example',
  tier: 'example',
  trap: null,
  hint: null,
  status: 'failed',
  message: 'call 3 returned a wrong value',
  calls: [
    call(0, true, { method: 'RecentCounter', args: '', expected: 'null', actual: 'null' }),
    call(1),
    call(2),
    call(3, false),
    call(4, false),
  ],
  totalCalls: 5,
  divergedAt: 3,
});

describe('headline and verdicts', () => {
  test('names the problem, the verdict, and counts cases and follow-ups apart', () => {
    const r = report({
      verdict: 'wrong-answer',
      cases: [
        result({ tier: 'example' }),
        result({ status: 'failed' }),
        result({ tier: 'follow-up' }),
      ],
      followUps: { passed: 1, total: 1 },
    });
    expect(casesPassed(r)).toEqual({ passed: 1, total: 2 });
    // 81 columns on one line: the counts go on a line of their own.
    expect(headline(problem, r, plain)).toBe(
      '933 · Number of Recent Calls — Wrong Answer\n  (cases 1/2 · follow-ups 1/1 · 42 ms)',
    );
  });

  test('accepted is green, not started yellow, anything else red', () => {
    expect(paintVerdict('accepted', colour)).toBe(colour.green(colour.bold('Accepted')));
    expect(paintVerdict('not-started', colour)).toBe(colour.yellow('Not Started'));
    for (const verdict of ['wrong-answer', 'compile-error', 'time-limit-exceeded'] as const) {
      expect(paintVerdict(verdict, colour)).toBe(colour.red(colour.bold(VERDICT_LABEL[verdict])));
    }
  });
});

describe('callTable', () => {
  test('calls to several instances, interleaved, say which instance each went to', () => {
    const calls = [
      call(0, true, { method: 'RecentCounter', args: '', expected: 'null', actual: 'null' }),
      call(1, true, {
        method: 'RecentCounter',
        args: '',
        expected: 'null',
        actual: 'null',
        target: 1,
      }),
      call(2),
      call(3, false, { target: 1 }),
    ];
    const text = callTable(result({ status: 'failed', calls, divergedAt: 3 }), plain).join('\n');
    expect(text).toMatch(/ 0 +\[0\] RecentCounter\(\)/);
    expect(text).toMatch(/ 1 +\[1\] RecentCounter\(\)/);
    expect(text).toMatch(/ 2 +\[0\] ping\(2000\)/);
    expect(text).toMatch(/→ +3 +\[1\] ping\(3000\)/);
    // One instance: no marks.
    const single = callTable(result({ calls: [call(0), call(1)] }), plain).join('\n');
    expect(single).not.toMatch(/\[0\]/);
  });

  test('lists the calls with expected and actual, and an arrow on the first difference only', () => {
    const lines = callTable(exampleFailure, plain);
    expect(lines[0]).toMatch(/^ +# +call +expected +actual$/);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^ {7}0 {2}RecentCounter\(\) +— +—$/),
      expect.stringMatching(/^ {7}1 {2}ping\(1000\) +1 +1$/),
      expect.stringMatching(/^ {7}2 {2}ping\(2000\) +2 +2$/),
      expect.stringMatching(/^ {2}→ {4}3 {2}ping\(3000\) +3 +4$/),
      expect.stringMatching(/^ {7}4 {2}ping\(4000\) +4 +5$/),
    ]);
  });

  test('colours only the wrong actual values and the arrow', () => {
    const lines = callTable(exampleFailure, colour);
    expect(lines[2]).not.toContain('\u001b[31m');
    expect(lines[4]).toContain(colour.red('→'));
    expect(lines[4]?.endsWith(colour.red('4'))).toBe(true);
    expect(lines[5]?.endsWith(colour.red('5'))).toBe(true);
  });

  test('a window of a long case says what was left out around it', () => {
    const lines = callTable(
      result({
        calls: [call(57), call(58), call(59), call(60, false), call(61), call(70)],
        totalCalls: 1000,
        divergedAt: 60,
      }),
      plain,
    );
    expect(lines[1]).toBe('         … 57 calls before');
    expect(lines.at(-4)).toMatch(/^ {6}61 {2}ping/);
    expect(lines.at(-3)).toBe('         …');
    expect(lines.at(-2)).toMatch(/^ {6}70 {2}ping/);
    expect(lines.at(-1)).toBe('         … (stopped here; 1000 calls run)');
    expect(lines.filter((l) => l.includes('→'))).toHaveLength(1);
  });

  test('is empty when there are no calls to show', () => {
    expect(callTable(result(), plain)).toEqual([]);
    expect(callTable(result({ calls: [] }), plain)).toEqual([]);
  });
});

describe('formatReport', () => {
  test('leads with the diagnosed causes in full; the rest a line each, unless verbose', () => {
    const lead = result({
      name: 'the cause',
      trap: 'edge',
      status: 'failed',
      message: 'call 1 returned a wrong value',
      calls: [call(0), call(1, false)],
      divergedAt: 1,
      lead: true,
    });
    const other = result({
      name: 'broken by it',
      trap: 'expiry',
      status: 'failed',
      message: 'call 4 returned a wrong value',
      hint: 'An expiry hint.',
      because: 'likely the same cause: edge',
    });
    const r = report({
      verdict: 'wrong-answer',
      cases: [lead, other],
      diagnosis: { traps: ['edge'] },
    });
    const brief = render(r);
    expect(brief).toContain('Hint: Think about the ends of the range.');
    expect(brief).toMatch(
      /Also failing:\n {2}✗ core · broken by it \[expiry\] — wrong answer · likely\s+the same cause: edge/,
    );
    expect(brief).not.toContain('An expiry hint.');
    expect(brief).not.toContain('call 4 returned');
    const verbose = formatReport(problem, r, { reveal: false, style: plain, verbose: true });
    expect(verbose).toContain('An expiry hint.');
    expect(verbose).toContain('call 4 returned a wrong value');
    expect(verbose).toContain('(likely the same cause: edge)');
  });

  test('an accepted report is the headline and the follow-ups passed', () => {
    const text = render(
      report({
        cases: [
          result({ tier: 'example' }),
          result(),
          result({ tier: 'follow-up', name: 'scale', trap: 'scale', ms: 812 }),
        ],
        followUps: { passed: 1, total: 1 },
      }),
    );
    expect(text.split('\n')).toEqual([
      '933 · Number of Recent Calls — Accepted  (cases 2/2 · follow-ups 1/1 · 42 ms)',
      'Follow-ups 1/1',
      '✓ scale [scale] 812 ms',
    ]);
  });

  test('a failing example shows its calls, with no need to reveal them', () => {
    const text = render(report({ verdict: 'wrong-answer', cases: [exampleFailure] }));
    expect(text).toContain('✗ example · statement example — wrong answer');
    expect(text).toContain('  call 3 returned a wrong value');
    expect(text).toMatch(/→ +3 +ping\(3000\) +3 +4/);
    // Examples are public: no hint, and no talk of --reveal.
    expect(text).not.toContain('Hint:');
    expect(text).not.toContain('--reveal');
  });

  test('a failing hidden case shows its trap, hint and first wrong call, but not its input, unless revealed', () => {
    const hidden = result({
      name: 'ping on the cutoff',
      trap: 'inclusive-boundary',
      status: 'failed',
      message: 'call 2 returned a wrong value',
      input: 'pings at 1, 3001',
      calls: [call(0), call(1), call(2, false)],
      divergedAt: 2,
    });
    const r = report({ verdict: 'wrong-answer', cases: [hidden] });
    const text = render(r);
    expect(text).toContain('✗ core · ping on the cutoff [inclusive-boundary] — wrong answer');
    expect(text).toContain('  Hint: Think about the ends of the range.');
    expect(text).toContain('  (run with -- --reveal to see all its calls, expected and actual)');
    expect(text).not.toContain('pings at 1, 3001');
    // As LeetCode shows the failing input: the first wrong call, and none of the others.
    expect(text).toMatch(/→ +2 +ping\(2000\) +2 +3/);
    expect(text).not.toMatch(/^ +1 +ping/m);

    const revealed = render(r, true);
    expect(revealed).toContain('  input: pings at 1, 3001');
    expect(revealed).toMatch(/→ +2 +ping\(2000\) +2 +3/);
    expect(revealed).not.toContain('--reveal');
  });

  test('a hidden case with no calls to show says nothing of --reveal', () => {
    const text = render(
      report({
        verdict: 'time-limit-exceeded',
        cases: [result({ status: 'time-limit-exceeded', message: 'no answer within 1000 ms' })],
      }),
    );
    expect(text).toContain('— time limit exceeded');
    expect(text).toContain('  no answer within 1000 ms');
    expect(text).not.toContain('--reveal');
  });

  test("a property case's counterexample is shown without --reveal", () => {
    const text = render(
      report({
        verdict: 'wrong-answer',
        cases: [
          result({
            status: 'failed',
            input: 'minimal counterexample after 4 shrinks',
            calls: [call(0), call(1, false)],
            divergedAt: 1,
          }),
        ],
      }),
    );
    expect(text).toContain('  input: minimal counterexample after 4 shrinks');
    expect(text).toMatch(/→ +1 +ping\(1000\) +1 +2/);
    expect(text).toContain('Hint:');
  });

  test('a runtime error shows the learner stack, indented', () => {
    const text = render(
      report({
        verdict: 'runtime-error',
        cases: [
          result({
            tier: 'example',
            status: 'runtime-error',
            message: 'RangeError: boom',
            stack: 'at RecentCounter.ping (solution.ts:7:11)\nat helper (solution.ts:2:3)',
          }),
        ],
      }),
    );
    expect(text).toContain(
      '\n  RangeError: boom\n    at RecentCounter.ping (solution.ts:7:11)\n    at helper (solution.ts:2:3)',
    );
  });

  test('a compile error shows its message and no cases at all', () => {
    const skipped = result({
      status: 'skipped',
      message: 'not run: the solution does not compile',
    });
    const text = render(
      report({
        verdict: 'compile-error',
        message: 'solution.ts:3:14: Unexpected ";"\n    return t +;',
        cases: [skipped, { ...skipped, tier: 'follow-up' }],
        followUps: { passed: 0, total: 1 },
      }),
    );
    expect(text.split('\n')).toEqual([
      '933 · Number of Recent Calls — Compile Error',
      '  (cases 0/1 · follow-ups 0/1 · 42 ms)',
      '',
      '  solution.ts:3:14: Unexpected ";"',
      '      return t +;',
    ]);
  });

  test('an untouched stub gets told where to start, and no case details', () => {
    const text = render(
      report({
        verdict: 'not-started',
        cases: [
          result({
            status: 'runtime-error',
            notImplemented: true,
            message: 'Error: Not implemented',
          }),
        ],
      }),
    );
    expect(text).toContain('Open the stub and replace the "Not implemented" errors');
    expect(text).not.toContain('✗');
  });

  test('failed and skipped follow-ups are described under the follow-ups', () => {
    const text = render(
      report({
        verdict: 'accepted',
        cases: [
          result({ tier: 'follow-up', name: 'scale', status: 'skipped', message: 'not run' }),
          result({ tier: 'follow-up', name: 'custom window', status: 'failed' }),
        ],
        followUps: { passed: 0, total: 2 },
      }),
    );
    const lines = text.split('\n');
    expect(lines[1]).toBe('Follow-ups 0/2');
    expect(lines).toContain('✗ follow-up · scale [some-trap] — skipped');
    expect(lines).toContain('✗ follow-up · custom window [some-trap] — wrong answer');
  });

  test('what the code printed is shown, cut to 12 lines', () => {
    const output = `${Array.from({ length: 15 }, (_, i) => `line ${i + 1}`).join('\n')}\n\n`;
    const lines = render(report({ output })).split('\n');
    const at = lines.indexOf('Your code printed (shortened):');
    expect(at).toBe(2);
    expect(lines.slice(at + 1)).toEqual([
      ...Array.from({ length: 12 }, (_, i) => `  line ${i + 1}`),
      '  … 3 more lines',
    ]);
    const short = render(report({ output: 'one\ntwo\n' })).split('\n');
    expect(short.slice(-2)).toEqual(['  one', '  two']);
    expect(render(report({ output: '  \n' }))).not.toContain('printed');
  });
});

describe("a scenario's own steps", () => {
  const rows: CallRecord[] = [
    { index: 0, method: 'allow', args: '"k"', expected: 'null', actual: 'null', ok: true },
    {
      index: 1,
      method: 'wait',
      args: 'until T+500 on Redis’s clock',
      expected: '',
      actual: '',
      ok: true,
      step: true,
    },
    {
      index: 2,
      method: 'keys left a second after every bucket is full again',
      args: '',
      expected: 'none',
      actual: '1:a, 1:b',
      ok: false,
      step: true,
    },
  ];
  const lines = callTable(result({ calls: rows, divergedAt: 2 }), plain);

  test('show as text, not as a call; a note expects nothing', () => {
    const wait = lines.findIndex((line) => line.includes('wait: until T+500'));
    expect(wait).toBeGreaterThan(-1);
    expect(lines.some((line) => line.includes('wait(') || line.includes('again()'))).toBe(false);
    // The note is one line: nothing under it until the next row.
    expect(lines[wait + 1]).toMatch(/^\s+→\s+2\s+keys left/);
  });

  test('a long check keeps expected and actual on lines of their own', () => {
    expect(lines.join('\n')).toMatch(/expected none\n\s+actual {3}1:a, 1:b/);
    expect(lines.every((line) => line.length <= 80)).toBe(true);
  });
});
