// Word wrapping, and where it is used for prose: Markdown paragraphs and list items, and the lines of
// a report that carry sentences (hints, messages, inputs, the headline).
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { loadExplanation } from '../../harness/learner/learning.ts';
import { renderMarkdown } from '../../harness/terminal/markdown.ts';
import type { CaseResult, ProblemReport } from '../../harness/judge/outcome.ts';
import { loadProblems } from '../../harness/judge/problems.ts';
import { formatReport, headline } from '../../harness/terminal/report.ts';
import { makeStyle } from '../../harness/terminal/style.ts';
import { wrapError } from '../../scripts/lib/cli.ts';
import { unwrapped } from '../helpers.ts';
import {
  DEFAULT_WIDTH,
  MAX_WIDTH,
  MIN_WIDTH,
  setWidth,
  stripAnsi,
  visibleLength,
  WIDTH,
  widthFor,
  wrap,
} from '../../harness/terminal/wrap.ts';

const plain = makeStyle(false);
const colour = makeStyle(true);
const widest = (text: string): number => Math.max(...text.split('\n').map((l) => visibleLength(l)));

describe('wrap', () => {
  test('a line that fits is returned exactly, spacing and all', () => {
    expect(wrap('a  b    c', 10)).toBe('a  b    c');
    expect(wrap('  | 3 |   return t +;', 80)).toBe('  | 3 |   return t +;');
    expect(WIDTH).toBe(80);
  });

  test('breaks at spaces, dropping the space at the break, with a hanging indent', () => {
    expect(wrap('one two three four five', 10)).toBe('one two\nthree four\nfive');
    expect(wrap('- one two three four', 10, '  ')).toBe('- one two\n  three\n  four');
  });

  test('keeps the leading indent of the first line and the spacing where nothing breaks', () => {
    expect(wrap('    ab  cd ef gh', 11, '    ')).toBe('    ab  cd\n    ef gh');
  });

  test('each line of a multi-line text is wrapped on its own', () => {
    expect(wrap('aa bb\ncc dd ee', 5)).toBe('aa bb\ncc dd\nee');
  });

  test('a word wider than the line is cut, so that nothing overflows', () => {
    expect(wrap('see abcdefghijkl', 5)).toBe('see\nabcde\nfghij\nkl');
    expect(wrap('abcdefgh', 5, '  ')).toBe('abcde\n  fgh');
  });

  test('unless asked to let such a word run long', () => {
    expect(wrap('see abcdefghijkl ok', 5, '', { cutLongWords: false })).toBe(
      'see\nabcdefghijkl\nok',
    );
  });

  test('an indent as wide as the line cannot loop forever', () => {
    expect(wrap('ab cd', 2, '    ')).toBe('ab\n    cd');
  });

  test('trailing spaces of a long line are dropped', () => {
    expect(wrap('ab cd ef   ', 5)).toBe('ab cd\nef');
  });

  test('colour codes take no room, and a cut word keeps them', () => {
    const word = colour.red('abcdef');
    expect(visibleLength(word)).toBe(6);
    const text = `${colour.bold('ab')} ${colour.green('cd')} ef`;
    expect(wrap(text, 8)).toBe(text);
    expect(wrap(text, 5)).toBe(`${colour.bold('ab')} ${colour.green('cd')}\nef`);
    const cut = wrap(word, 4).split('\n');
    expect(cut.map(stripAnsi)).toEqual(['abcd', 'ef']);
    expect(cut[0]!.startsWith('\u001b[31m')).toBe(true);
    expect(cut[1]!.endsWith('\u001b[39m')).toBe(true);
  });
});

describe('the width', () => {
  test('80 columns when the output is not a terminal or does not say how wide it is', () => {
    expect(DEFAULT_WIDTH).toBe(80);
    expect(widthFor(undefined)).toBe(80);
    expect(widthFor(0)).toBe(80);
    expect(widthFor(NaN)).toBe(80);
  });

  test("a terminal's own width, up to a maximum, and never absurdly narrow", () => {
    expect(widthFor(90)).toBe(90);
    expect(widthFor(80)).toBe(80);
    expect(widthFor(300)).toBe(MAX_WIDTH);
    expect(MAX_WIDTH).toBe(100);
    expect(widthFor(12)).toBe(MIN_WIDTH);
  });

  test('setWidth changes WIDTH for every module that imports it, and what wraps by default', () => {
    const sentence = 'word '.repeat(40).trim();
    try {
      expect(setWidth(120)).toBe(100);
      expect(WIDTH).toBe(100);
      expect(widest(wrap(sentence))).toBe(99);
      expect(widest(renderMarkdown(sentence, plain))).toBe(99);
      setWidth(50);
      expect(WIDTH).toBe(50);
      expect(widest(renderMarkdown(sentence, plain))).toBeLessThanOrEqual(50);
      expect(
        widest(
          formatReport(problem, report({ message: sentence }), { reveal: false, style: plain }),
        ),
      ).toBeLessThanOrEqual(50);
    } finally {
      setWidth(undefined);
    }
    expect(WIDTH).toBe(80);
  });
});

describe('renderMarkdown at 80 columns', () => {
  const long = 'word '.repeat(30).trim();

  test('a paragraph wrapped for the editor is re-flowed for the screen', () => {
    const md = `${'a '.repeat(45)}\nb c\n\nnext`;
    const out = renderMarkdown(md, plain).split('\n');
    expect(out.every((l) => l.length <= 80)).toBe(true);
    expect(out.join(' ').replace(/\s+/g, ' ')).toBe(`${'a '.repeat(45)}b c next`);
    expect(out.at(-2)).toBe('');
  });

  test('list items keep their marker and continue under their text', () => {
    const md = `- ${long}\n  continued\n1. ${long}\n- short`;
    const out = renderMarkdown(md, plain, 40).split('\n');
    expect(out[0]).toMatch(/^- word/);
    expect(out[1]).toMatch(/^ {2}word/);
    const numbered = out.findIndex((l) => l.startsWith('1. '));
    expect(out[numbered + 1]).toMatch(/^ {3}word/);
    expect(out.at(-1)).toBe('- short');
    expect(out.join('\n')).toContain('continued');
    expect(widest(out.join('\n'))).toBeLessThanOrEqual(40);
  });

  test('inline markup spanning a source line break is rendered whole', () => {
    expect(renderMarkdown('a **bold\nword** and `a\nb`', makeStyle(true))).toBe(
      `a ${colour.bold('bold word')} and ${colour.cyan('a b')}`,
    );
  });

  test('code keeps its lines: one too wide for the screen runs long rather than break', () => {
    const calls = `calls:   [${Array.from({ length: 12 }, () => '"shouldPrint"').join(', ')}]`;
    const md = ['```text', calls, 'returns: [null, true]', '```'].join('\n');
    expect(renderMarkdown(md, plain).split('\n')).toEqual([
      `    ${calls}`,
      '    returns: [null, true]',
    ]);
    const line = `  ${'x + '.repeat(30)}y;`;
    expect(renderMarkdown(`\`\`\`ts\n${line}\n\`\`\``, colour, 40)).toBe(
      colour.cyan(`    ${line}`),
    );
  });

  test('every statement and explanation fits 80 columns, with or without colour', () => {
    for (const problem of loadProblems()) {
      for (const markdown of [
        readFileSync(problem.statementFile, 'utf8'),
        loadExplanation(problem),
      ]) {
        for (const style of [plain, colour]) {
          expect(widest(renderMarkdown(markdown, style)), problem.dir).toBeLessThanOrEqual(80);
        }
      }
    }
  });
});

const problem = loadProblems()[0]!;

function report(overrides: Partial<ProblemReport>): ProblemReport {
  return {
    dir: problem.dir,
    verdict: 'wrong-answer',
    cases: [],
    followUps: { passed: 0, total: 1 },
    output: '',
    ms: 42,
    ...overrides,
  };
}

function failing(overrides: Partial<CaseResult>): CaseResult {
  return {
    name: 'a case whose name is long enough to need a second line of its own',
    tier: 'core',
    trap: 'some-trap',
    hint: null,
    status: 'failed',
    ms: 3,
    ...overrides,
  };
}

describe('reports at 80 columns', () => {
  test('the headline keeps its counts on its line when they fit', () => {
    const short = { ...problem, id: '1', title: 'Short' };
    expect(headline(short, report({}), plain)).toBe(
      '1 · Short — Wrong Answer  (cases 0/0 · follow-ups 0/1 · 42 ms)',
    );
    const long = headline(
      { ...problem, title: 'A Title Long Enough to Need Two Lines' },
      report({}),
      colour,
    );
    expect(stripAnsi(long).split('\n')[1]).toBe('  (cases 0/0 · follow-ups 0/1 · 42 ms)');
  });

  test('hints, messages, inputs, stacks and printed lines are wrapped or cut', () => {
    const sentence = 'This sentence goes on and on, '.repeat(6).trim();
    const text = formatReport(
      problem,
      report({
        message: sentence,
        output: `${'x'.repeat(200)}\nshort\n`,
        cases: [
          failing({
            hint: sentence,
            message: sentence,
            input: `minimal counterexample: ${sentence}`,
            stack: `Error: boom\n    at ${'deep/'.repeat(30)}solution.ts:1:1`,
            calls: [
              {
                index: 0,
                method: 'ping',
                args: '1, "a very long argument that pushes the columns of the table past the edge"',
                expected: '1',
                actual: '2',
                ok: false,
              },
            ],
            divergedAt: 0,
          }),
          failing({ tier: 'follow-up', status: 'passed', name: sentence }),
        ],
      }),
      { reveal: false, style: colour },
    );
    expect(widest(text)).toBeLessThanOrEqual(80);
    const lines = stripAnsi(text).split('\n');
    const hint = lines.findIndex((l) => l.startsWith('  Hint: This sentence'));
    expect(lines[hint + 1]).toMatch(/^ {8}\S/);
    expect(lines.find((l) => l.includes('xxxx'))).toMatch(/^ {2}x+…$/);
    expect(lines).toContain('  short');
    expect(lines.some((l) => /^ {10}\S/.test(l))).toBe(true);
  });
});

test('a long value is cut after a comma rather than inside a number', () => {
  const value = '{allowed:true,remaining:1,resetAt:1796114321577,retryAt:1796114321327}';
  const lines = wrap(`  → ${value}`, 40, '    ').split('\n');
  expect(lines.every((line) => line.length <= 40)).toBe(true);
  expect(lines.join('').replace(/ /g, '')).toBe(`→${value}`);
  expect(lines.slice(1, -1).every((line) => line.endsWith(','))).toBe(true);
  // With no comma to break at, a word is still cut where the line ends.
  expect(wrap('x'.repeat(50), 40)).toBe(`${'x'.repeat(40)}\n${'x'.repeat(10)}`);
});

describe('wrapError', () => {
  test('an error wraps to the width and continues under its message, not its label', () => {
    const message =
      'error: Unknown problem "x". Known problems: 933, 362, 346, 359, 1352, token-bucket, fixed-window-limiter';
    const lines = wrapError(message, 60).split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {7}\S/);
    expect(unwrapped(lines.join('\n'))).toBe(message);
  });

  test('a path wider than the line is never cut in two', () => {
    const path = `/tmp/${'x'.repeat(90)}/solution.ts`;
    expect(wrapError(`error: cannot read ${path}`, 60)).toContain(path);
  });
});
