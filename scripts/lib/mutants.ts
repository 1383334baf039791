// The mutants of a reference solution, for `npm run mutate`. A mutant is the reference with one
// small change: if the suite still accepts it, with every follow-up passed, either the suite misses
// a bug or the change is invisible (equivalent: listed in equivalent-mutants.json, which
// equivalent-mutants.ts reads). Each mutant is a whole file, so the judge runs it as a learner's solution.
//
// Where mutants come from:
// - Stryker's mutators (@stryker-mutator/instrumenter 9.6.1: arithmetic, equality, logical,
//   conditional, block, boolean, update, assignment, method, string, array and object literals,
//   optional chaining, regex), each with its location and replacement text. The messages of errors
//   (`new RangeError(…)`) are not mutated: no statement fixes their wording, only the error's type.
// - Three of this project's own, which Stryker lacks and window counters depend on:
//   - NumberLiteral: every number n becomes n + 1, n - 1 and 0 (a limit, a window size, a
//     compaction threshold, a tolerance each off by one or gone);
//   - ArrayMethod: push <-> unshift and pop <-> shift (the wrong end of a queue);
//   - RoundingMethod: Math.floor <-> Math.ceil (the wrong window for a time).
import { Instrumenter } from '@stryker-mutator/instrumenter';
import ts from 'typescript';

export interface Mutant {
  /** 1-based, in the order of where the change starts in the file. */
  id: number;
  mutator: string;
  /** Where the replaced text starts, 1-based, as an editor shows it. */
  line: number;
  column: number;
  /** The replaced text's offsets in the source. */
  start: number;
  end: number;
  /** The source line where the replaced text starts, trimmed, white space runs as one space. */
  context: string;
  /** The text replaced, and the text put in its place. */
  original: string;
  replacement: string;
  /** The whole mutated file. */
  code: string;
}

export interface Generated {
  mutants: Mutant[];
  /** Mutants left out on purpose: those inside error messages (a literal counted once). */
  ignored: number;
}

/** A change before it has an id and a file: a span of the source and what goes there. */
interface Change {
  mutator: string;
  start: number;
  end: number;
  replacement: string;
}

type InstrumenterLogger = ConstructorParameters<typeof Instrumenter>[0];

const quietLogger = {
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => false,
  isErrorEnabled: () => false,
  isFatalEnabled: () => false,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  fatal: () => undefined,
} as unknown as InstrumenterLogger;

export const IGNORED_ERROR_MESSAGE = 'the message of an error: no statement fixes its wording';

/** A Stryker ignorer: nothing inside `new SomethingError(…)` is mutated. */
const errorMessages = {
  shouldIgnore(path: unknown): string | undefined {
    const node = (path as { node?: { type?: string; callee?: { type?: string; name?: string } } })
      .node;
    const callee = node?.type === 'NewExpression' ? node.callee : undefined;
    return callee?.type === 'Identifier' && /Error$/.test(callee.name ?? '')
      ? IGNORED_ERROR_MESSAGE
      : undefined;
  },
};

/** Offsets where each line starts, to turn Stryker's line and column into an offset. */
function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') starts.push(i + 1);
  return starts;
}

/** Stryker's mutants: its locations are 0-based lines and columns in UTF-16 units. */
async function strykerChanges(
  source: string,
  fileName: string,
): Promise<{ changes: Change[]; ignored: number }> {
  const result = await new Instrumenter(quietLogger).instrument(
    [{ name: fileName, content: source, mutate: true }],
    { plugins: null, excludedMutations: [], ignorers: [errorMessages] },
  );
  const starts = lineStarts(source);
  const offset = (p: { line: number; column: number }): number =>
    (starts[p.line] as number) + p.column;
  const kept = result.mutants.filter((m) => m.status !== 'Ignored');
  return {
    changes: kept.map((m) => ({
      mutator: m.mutatorName,
      start: offset(m.location.start),
      end: offset(m.location.end),
      replacement: m.replacement,
    })),
    ignored: result.mutants.length - kept.length,
  };
}

/** The extra mutators' swaps: each name to the one it becomes. */
const ARRAY_METHOD_SWAPS: Record<string, string> = {
  push: 'unshift',
  unshift: 'push',
  pop: 'shift',
  shift: 'pop',
};
const ROUNDING_SWAPS: Record<string, string> = { floor: 'ceil', ceil: 'floor' };

function insideType(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isTypeNode(at)) return true;
  }
  return false;
}

/** Inside `new SomethingError(…)`: left alone, as the Stryker ignorer above leaves it. */
function insideErrorMessage(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (
      ts.isNewExpression(at) &&
      ts.isIdentifier(at.expression) &&
      /Error$/.test(at.expression.text)
    )
      return true;
  }
  return false;
}

/** Writes a number back as source; a negative one in parentheses (`a - -1` and `x--1` differ). */
function numberText(value: number): string {
  const text = String(value);
  return value < 0 || Object.is(value, -0) ? `(${text})` : text;
}

/** NumberLiteral, ArrayMethod and RoundingMethod: see the top of this file. */
function extraChanges(sf: ts.SourceFile, ignored: { count: number }): Change[] {
  const changes: Change[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isTypeNode(node)) return;
    if (ts.isNumericLiteral(node) && !insideType(node)) {
      const parent = node.parent as ts.Node & { name?: ts.Node };
      if (insideErrorMessage(node)) ignored.count += 1;
      else if (parent.name !== node) {
        const value = Number(node.text.replaceAll('_', ''));
        const seen = new Set([value]);
        for (const next of [value + 1, value - 1, 0]) {
          if (seen.has(next)) continue;
          seen.add(next);
          changes.push({
            mutator: 'NumberLiteral',
            start: node.getStart(sf),
            end: node.end,
            replacement: numberText(next),
          });
        }
      }
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const { name, expression } = node.expression;
      const isMath = ts.isIdentifier(expression) && expression.text === 'Math';
      const table = isMath ? ROUNDING_SWAPS : ARRAY_METHOD_SWAPS;
      const swap = Object.hasOwn(table, name.text) ? table[name.text] : undefined;
      if (swap !== undefined) {
        changes.push({
          mutator: isMath ? 'RoundingMethod' : 'ArrayMethod',
          start: name.getStart(sf),
          end: name.end,
          replacement: swap,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return changes;
}

/** The outermost node that spans exactly [start, end), if any. */
function nodeAt(sf: ts.SourceFile, start: number, end: number): ts.Node | undefined {
  let found: ts.Node | undefined;
  const visit = (node: ts.Node): void => {
    if (found || node.getStart(sf) > start || node.end < end) return;
    if (node.getStart(sf) === start && node.end === end) {
      found = node;
      return;
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sf, visit);
  return found;
}

/**
 * Replacement texts that bind tighter than any operator, never in need of parentheses: a name or
 * a number (`this.times`, `1.5`), a negative number already in them, a string, an empty template,
 * and Stryker's array and object literals.
 */
const ATOMIC =
  /^(?:[\w$]+(?:\.[\w$]+)*|\(-[\d.e+-]+\)|"(?:[^"\\\n]|\\.)*"|``|\[\]|\["Stryker was here"\]|\{\})$/;

/**
 * The expression around the replaced text, when a replacement spliced in as text may need parentheses to mean what Stryker meant (it
 * changes the syntax tree, where precedence is no question): `a && b && c` with its inner `a && b`
 * made `a || b` must read `(a || b) && c`, not `a || b && c`. Only an operand of an operator may;
 * anywhere else (a statement, a condition, an argument, an initialiser) the text stands alone.
 */
function needsParentheses(sf: ts.SourceFile, change: Change): ts.Node | undefined {
  if (ATOMIC.test(change.replacement)) return undefined;
  const node = nodeAt(sf, change.start, change.end);
  const parent = node?.parent;
  if (!node || !parent) return undefined;
  const operand =
    ts.isBinaryExpression(parent) ||
    ts.isConditionalExpression(parent) ||
    ts.isPrefixUnaryExpression(parent) ||
    ts.isPostfixUnaryExpression(parent) ||
    ts.isAsExpression(parent) ||
    ts.isNonNullExpression(parent) ||
    ts.isTypeOfExpression(parent) ||
    ts.isVoidExpression(parent) ||
    ts.isAwaitExpression(parent) ||
    ts.isDeleteExpression(parent) ||
    ts.isTypeAssertionExpression(parent) ||
    ts.isSatisfiesExpression(parent);
  // The object of `x.y`, `x[i]`, `x(…)` or `new x(…)`; an argument or an index stands alone.
  const callee =
    (ts.isPropertyAccessExpression(parent) ||
      ts.isElementAccessExpression(parent) ||
      ts.isCallExpression(parent) ||
      ts.isNewExpression(parent) ||
      ts.isTaggedTemplateExpression(parent)) &&
    (parent as { expression?: ts.Node }).expression === node;
  return operand || callee ? parent : undefined;
}

/** `??` may not meet `&&` or `||` without parentheses: `a && b ?? c` does not parse. */
function mixesNullish(inner: ts.SyntaxKind, outer: ts.SyntaxKind): boolean {
  const nullish = ts.SyntaxKind.QuestionQuestionToken;
  const logical = [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken];
  return (
    (inner === nullish && logical.includes(outer)) || (outer === nullish && logical.includes(inner))
  );
}

/**
 * The source with the change made. An operand gets parentheses only when the text alone would not
 * stay together (`a || b && c`): spliced in bare into the expression around it, it must parse as
 * one node of its own (and not mix `??` with `&&` or `||`).
 */
function splice(source: string, sf: ts.SourceFile, change: Change): string {
  const bare = source.slice(0, change.start) + change.replacement + source.slice(change.end);
  const parent = needsParentheses(sf, change);
  if (!parent) return bare;
  // The parent expression alone is enough to parse, and far cheaper than the whole file.
  const from = parent.getStart(sf);
  const piece =
    source.slice(from, change.start) + change.replacement + source.slice(change.end, parent.end);
  const parsed = ts.createSourceFile('piece.ts', `(${piece})`, ts.ScriptTarget.Latest, true);
  const at = change.start - from + 1;
  const found = nodeAt(parsed, at, at + change.replacement.length);
  const mixed =
    found !== undefined &&
    ts.isBinaryExpression(found) &&
    ts.isBinaryExpression(found.parent) &&
    mixesNullish(found.operatorToken.kind, found.parent.operatorToken.kind);
  if (found && !mixed) return bare;
  return `${source.slice(0, change.start)}(${change.replacement})${source.slice(change.end)}`;
}

/** Every mutant of a TypeScript source, numbered by position, none a duplicate or a no-op. */
export async function generateMutants(source: string, fileName: string): Promise<Generated> {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const stryker = await strykerChanges(source, fileName);
  const ignored = { count: stryker.ignored };
  const changes = [...stryker.changes, ...extraChanges(sf, ignored)].sort(
    (a, b) =>
      a.start - b.start ||
      b.end - a.end ||
      a.mutator.localeCompare(b.mutator) ||
      a.replacement.localeCompare(b.replacement),
  );
  const starts = lineStarts(source);
  const seen = new Set([source]);
  const mutants: Mutant[] = [];
  for (const change of changes) {
    const code = splice(source, sf, change);
    // Two mutators may make the same file: it is judged once, under the name that sorts first.
    if (seen.has(code)) continue;
    seen.add(code);
    let line = 0;
    while (line + 1 < starts.length && (starts[line + 1] as number) <= change.start) line++;
    mutants.push({
      id: mutants.length + 1,
      mutator: change.mutator,
      line: line + 1,
      column: change.start - (starts[line] as number) + 1,
      context: oneLine(source.slice(starts[line], (starts[line + 1] ?? source.length + 1) - 1)),
      start: change.start,
      end: change.end,
      original: source.slice(change.start, change.end),
      replacement: change.replacement,
      code,
    });
  }
  return { mutants, ignored: ignored.count };
}

/** Runs of white space as one space: how `original` is compared (and shown on one line). */
export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * The lines the mutant changes, before and after: a diff of the whole lines it touches, at most
 * `max` of each (a block emptied may span many).
 */
export function diffLines(
  source: string,
  mutant: Mutant,
  max = 4,
): { before: string[]; after: string[] } {
  const from = source.lastIndexOf('\n', mutant.start - 1) + 1;
  const toOld = source.indexOf('\n', mutant.end);
  const before = source.slice(from, toOld === -1 ? undefined : toOld).split('\n');
  const delta = mutant.code.length - source.length;
  const toNew = toOld === -1 ? undefined : toOld + delta;
  const after = mutant.code.slice(from, toNew).split('\n');
  const cut = (lines: string[]): string[] =>
    lines.length > max
      ? [...lines.slice(0, max - 1), `… (${lines.length - max + 1} more lines)`]
      : lines;
  return { before: cut(before), after: cut(after) };
}

/** What happened to a mutant judged as a learner's solution. */
export type Fate = 'verdict' | 'follow-up' | 'compile' | 'survived';

/**
 * Killed by the verdict (anything but Accepted), by a follow-up only (Accepted, but a follow-up
 * not passed), by the compiler (Compile Error: the mutant is not valid code), or survived.
 */
export function fateOf(report: {
  verdict: string;
  followUps: { passed: number; total: number };
}): Fate {
  if (report.verdict === 'compile-error') return 'compile';
  if (report.verdict !== 'accepted') return 'verdict';
  return report.followUps.passed < report.followUps.total ? 'follow-up' : 'survived';
}
