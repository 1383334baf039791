// What the learner reads fits a terminal of 80 columns, and code is never broken to make it fit:
// every statement (as `npm run kata` shows it), every reference solution with its explanation (as
// `npm run solution` shows it) and every hint (as `npm run hint` shows it), rendered at 80 columns.
// Prose is wrapped by the renderer; code lines are shown as written, so it is the content that keeps
// them narrow: statement code within 80 columns once indented, reference comments within 80 columns.
// Only a line of reference code may be wider (the references are the judge's oracles, formatted at
// 100 columns): it runs long, whole.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadProblems } from '../../harness/judge/problems.ts';
import { loadExplanation, loadHints } from '../../harness/learner/learning.ts';
import { parseExamples } from '../../harness/learner/statement.ts';
import { CODE_INDENT, renderMarkdown } from '../../harness/terminal/markdown.ts';
import { makeStyle } from '../../harness/terminal/style.ts';
import { setWidth, stripAnsi, visibleLength, WIDTH } from '../../harness/terminal/wrap.ts';
import { hintLines } from '../../scripts/commands/hint.ts';
import { page } from '../../scripts/commands/solution.ts';

const plain = makeStyle(false);
const colour = makeStyle(true);
const problems = loadProblems();

// Output that is piped, as in CI, is 80 columns wide: the width these checks are about.
beforeAll(() => setWidth(undefined));
afterAll(() => setWidth(undefined));

/** The lines of each fenced code block of a Markdown text, block by block. */
function codeBlocks(markdown: string): string[][] {
  return [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```$/gm)].map((m) =>
    (m[1] as string).replace(/\n$/, '').split('\n'),
  );
}

/**
 * Checks a rendered Markdown text against its source: each code block appears whole, line for line,
 * indented and nothing else; every other line fits 80 columns. Returns the rendered code lines.
 */
function checkRendered(markdown: string, rendered: string, where: string): string[] {
  const lines = stripAnsi(rendered).split('\n');
  const code: string[] = [];
  let from = 0;
  for (const block of codeBlocks(markdown)) {
    const shown = block.map((line) => `${CODE_INDENT}${line}`.trimEnd());
    const at = lines.findIndex(
      (_, i) => i >= from && shown.every((line, j) => lines[i + j]?.trimEnd() === line),
    );
    expect(at, `${where}: a code block is shown whole, line for line: ${block[0]}`).toBeGreaterThan(
      -1,
    );
    code.push(...lines.splice(at, shown.length));
    from = at;
  }
  const wide = lines.filter((line) => line.length > 80);
  expect(wide, `${where}: lines outside code wider than 80 columns`).toEqual([]);
  return code;
}

describe('at 80 columns', () => {
  test('piped output is 80 columns wide', () => {
    expect(WIDTH).toBe(80);
  });

  for (const problem of problems) {
    describe(problem.dir, () => {
      test('the statement: prose wrapped, code whole and within 80 columns', () => {
        const markdown = readFileSync(problem.statementFile, 'utf8');
        for (const style of [plain, colour]) {
          const code = checkRendered(markdown, renderMarkdown(markdown, style), problem.dir);
          const wide = code.filter((line) => line.length > 80);
          expect(wide, 'statement code lines wider than 80 columns once indented').toEqual([]);
        }
      });

      test('the reference solution page: source unbroken, comments within 80 columns', () => {
        const source = readFileSync(problem.referenceFile, 'utf8');
        const shown = stripAnsi(page(problem, { style: colour })).split('\n');
        // The source sits between two rules, exactly as written.
        const rules = shown.flatMap((line, i) => (/^─+$/.test(line) ? [i] : []));
        expect(rules).toHaveLength(2);
        const [first, second] = rules as [number, number];
        const lines = source.trimEnd().split('\n');
        expect(shown.slice(first + 1, second)).toEqual(lines);
        expect(shown[first]).toHaveLength(80);
        const wideComments = commentLines(source)
          .map((i) => lines[i] as string)
          .filter((line) => line.length > 80);
        expect(wideComments, 'reference comment lines wider than 80 columns').toEqual([]);
        // Above it the title and path, below it the explanation: all wrapped or narrow.
        const around = [...shown.slice(0, first), ...shown.slice(second + 1)].join('\n');
        const explanation = loadExplanation(problem);
        const code = checkRendered(explanation, around, `${problem.dir} explanation`);
        expect(code.filter((line) => line.length > 80)).toEqual([]);
      });

      test('every hint: wrapped within 80 columns, no word broken', () => {
        const hints = loadHints(problem);
        for (let i = 0; i < hints.length; i++) {
          for (const look of ['seen', 'new', 'plain'] as const) {
            const lines = hintLines(hints, i, look, colour);
            expect(lines.filter((line) => visibleLength(line) > 80)).toEqual([]);
            const words = (text: string) => text.trim().split(/\s+/);
            expect(words(lines.map(stripAnsi).join(' '))).toEqual(
              words(`Hint ${i + 1}/${hints.length} ${hints[i]}`),
            );
          }
        }
      });
    });
  }
});

/** The indexes of the lines any comment of a TypeScript source touches. */
function commentLines(source: string): number[] {
  const file = ts.createSourceFile('reference.ts', source, ts.ScriptTarget.Latest, true);
  const ranges = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node): void => {
    for (const range of [
      ...(ts.getLeadingCommentRanges(source, node.getFullStart()) ?? []),
      ...(ts.getTrailingCommentRanges(source, node.getEnd()) ?? []),
    ]) {
      ranges.set(range.pos, range);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  const lines = new Set<number>();
  for (const range of ranges.values()) {
    const from = file.getLineAndCharacterOfPosition(range.pos).line;
    const to = file.getLineAndCharacterOfPosition(range.end).line;
    for (let line = from; line <= to; line++) lines.add(line);
  }
  return [...lines].sort((a, b) => a - b);
}

describe('the helpers of these checks', () => {
  test('comment lines are found wherever a comment is, and only there', () => {
    const source = [
      '// a',
      'const x = 1; // b',
      "const url = 'http://not.a.comment';",
      '/**',
      ' * c',
      ' */',
      'function f(): void {',
      '  /* d */ return;',
      '}',
      'const t = `${x} // not one either`;',
    ].join('\n');
    expect(commentLines(source)).toEqual([0, 1, 3, 4, 5, 7]);
  });

  test('a code block found in the rendering is taken out, and the rest measured', () => {
    const md = ['Some text.', '', '```ts', 'const a = 1;', '```', 'More.'].join('\n');
    expect(checkRendered(md, renderMarkdown(md, colour), 'made up')).toEqual(['    const a = 1;']);
  });
});

describe('examples too long for one line', () => {
  test('go on over indented lines, and read as one value', () => {
    const md = [
      '```text',
      'calls:   ["A", "f",',
      '          "g"]',
      'args:    [[], [1],',
      '          [2]]',
      'returns: [null,',
      '          {"x":1},',
      '          2]',
      'Not indented: the end of the value.',
      '```',
    ].join('\n');
    expect(parseExamples(md)).toEqual([
      { methods: ['A', 'f', 'g'], args: [[], [1], [2]], expected: [null, { x: 1 }, 2] },
    ]);
  });

  test('a value cut short is an error, not a silent skip', () => {
    const md = '```text\ncalls: ["A",\nargs: [[]]\nreturns: [null]\n```';
    expect(() => parseExamples(md)).toThrow(SyntaxError);
  });
});
