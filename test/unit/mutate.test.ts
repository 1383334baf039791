// `npm run mutate`: the mutants it makes (Stryker's and the project's own), the list of equivalent
// mutants, and the command itself on a handful of mutants (never a full mutation run: that takes
// minutes, see CONTRIBUTING.md).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { transform } from 'esbuild';
import { describe, expect, test, vi } from 'vitest';
import { loadProblems } from '../../harness/judge/problems.ts';
import { EQUIVALENTS_FILE, mutate } from '../../scripts/commands/mutate.ts';
import { runCommand } from '../../scripts/lib/cli.ts';
import {
  entryFor,
  EquivalentsError,
  matchEquivalents,
  parseEquivalents,
  type EquivalentEntry,
} from '../../scripts/lib/equivalent-mutants.ts';
import {
  diffLines,
  fateOf,
  generateMutants,
  IGNORED_ERROR_MESSAGE,
  type Mutant,
} from '../../scripts/lib/mutants.ts';
import { captureIO, scratchDir } from '../helpers.ts';

const QUEUE = `export class Queue {
  private items: number[] = [];

  add(x: number): number {
    this.items.push(x);
    if (this.items.length > 3 && x > 0) this.items.shift();
    return Math.floor(this.items.length / 2);
  }
}
`;

/** The mutants with this mutator and replacement. */
const find = (mutants: Mutant[], mutator: string, replacement: string): Mutant[] =>
  mutants.filter((m) => m.mutator === mutator && m.replacement === replacement);

describe('generateMutants', () => {
  test("gives Stryker's mutants, each with its place, its text and the whole file", async () => {
    const { mutants } = await generateMutants(QUEUE, 'queue.ts');
    const [equality] = find(mutants, 'EqualityOperator', 'this.items.length >= 3');
    expect(equality).toMatchObject({ line: 6, column: 9, original: 'this.items.length > 3' });
    const [logical] = find(mutants, 'LogicalOperator', 'this.items.length > 3 || x > 0');
    expect(logical?.code).toContain('if (this.items.length > 3 || x > 0) this.items.shift();');
    expect(find(mutants, 'ArithmeticOperator', 'this.items.length * 2')).toHaveLength(1);
    expect(find(mutants, 'ConditionalExpression', 'false').length).toBeGreaterThan(0);
    expect(find(mutants, 'BlockStatement', '{}')).toHaveLength(1);
    // Every mutant is the source with its one span replaced, and nothing else.
    for (const m of mutants) {
      const before = m.code.slice(0, m.start);
      expect(before).toBe(QUEUE.slice(0, m.start));
      expect(QUEUE.slice(m.start, m.end)).toBe(m.original);
      expect(m.code.endsWith(QUEUE.slice(m.end))).toBe(true);
    }
  });

  test('adds number literals (n + 1, n - 1, 0), array-method and rounding swaps', async () => {
    const { mutants } = await generateMutants(QUEUE, 'queue.ts');
    const three = mutants.filter((m) => m.mutator === 'NumberLiteral' && m.original === '3');
    expect(three.map((m) => m.replacement).sort()).toEqual(['0', '2', '4']);
    expect(three.every((m) => m.line === 6 && m.column === 29)).toBe(true);
    // 2 - 1 is 1 and 0 once: no mutant twice.
    const two = mutants.filter((m) => m.mutator === 'NumberLiteral' && m.original === '2');
    expect(two.map((m) => m.replacement).sort()).toEqual(['0', '1', '3']);
    const [unshift] = find(mutants, 'ArrayMethod', 'unshift');
    expect(unshift).toMatchObject({ line: 5, column: 16, original: 'push' });
    expect(unshift?.code).toContain('this.items.unshift(x);');
    expect(find(mutants, 'ArrayMethod', 'pop')[0]?.code).toContain('this.items.pop();');
    expect(find(mutants, 'RoundingMethod', 'ceil')[0]?.code).toContain('Math.ceil(');
  });

  test('numbers them 1, 2, … by position, and never makes the same file twice', async () => {
    const { mutants } = await generateMutants(QUEUE, 'queue.ts');
    expect(mutants.map((m) => m.id)).toEqual(mutants.map((_, i) => i + 1));
    const starts = mutants.map((m) => m.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(new Set(mutants.map((m) => m.code)).size).toBe(mutants.length);
    expect(mutants.some((m) => m.code === QUEUE)).toBe(false);
  });

  test('puts a replacement in parentheses where an operator would take it apart', async () => {
    const source =
      'export function f(x: number, y: number, z: number): boolean {\n  return x > 0 && y > 0 && z > 1;\n}\n';
    const { mutants } = await generateMutants(source, 'f.ts');
    const [inner] = find(mutants, 'LogicalOperator', 'x > 0 || y > 0');
    expect(inner?.code).toContain('return (x > 0 || y > 0) && z > 1;');
    // A negative number, too: `z > -1` reads fine, `x--1` would not.
    expect(find(mutants, 'NumberLiteral', '(-1)')[0]?.code).toContain('x > (-1)');
    // Standing alone (a return value), no parentheses.
    const [outer] = find(mutants, 'LogicalOperator', 'x > 0 && y > 0 || z > 1');
    expect(outer?.code).toContain('return x > 0 && y > 0 || z > 1;');
  });

  test('leaves out error messages and types, and says how many it left out', async () => {
    const source = [
      'export function check(n: 5 | 6): number {',
      "  if (n > 5) throw new RangeError('too big: ' + String(n - 1));",
      '  return n;',
      '}',
      '',
    ].join('\n');
    const { mutants, ignored } = await generateMutants(source, 'check.ts');
    expect(ignored).toBeGreaterThan(0);
    expect(mutants.filter((m) => m.line === 2 && m.column > 12)).toEqual([]);
    // On line 1 only the function's body, emptied: not the numbers of its parameter's type.
    expect(mutants.filter((m) => m.line === 1).map((m) => m.mutator)).toEqual(['BlockStatement']);
    expect(IGNORED_ERROR_MESSAGE).toMatch(/message/);
  });

  test("every mutant of every reference is valid syntax (the judge's compile errors are type errors)", async () => {
    for (const problem of loadProblems()) {
      const source = readFileSync(problem.referenceFile, 'utf8');
      const { mutants } = await generateMutants(source, problem.referenceFile);
      expect(mutants.length, problem.dir).toBeGreaterThan(10);
      const parsed = await Promise.all(
        mutants.map((m) =>
          transform(m.code, { loader: 'ts' }).then(
            () => 'ok',
            (error: Error) =>
              `${problem.dir} #${m.id} ${m.mutator} ${m.replacement}: ${error.message}`,
          ),
        ),
      );
      expect(parsed.filter((p) => p !== 'ok')).toEqual([]);
    }
  });

  test('diffLines shows the whole lines the mutant touches, before and after', async () => {
    const { mutants } = await generateMutants(QUEUE, 'queue.ts');
    const [m] = find(mutants, 'EqualityOperator', 'this.items.length >= 3');
    expect(diffLines(QUEUE, m as Mutant)).toEqual({
      before: ['    if (this.items.length > 3 && x > 0) this.items.shift();'],
      after: ['    if (this.items.length >= 3 && x > 0) this.items.shift();'],
    });
    const [block] = find(mutants, 'BlockStatement', '{}');
    const diff = diffLines(QUEUE, block as Mutant, 3);
    expect(diff.before).toEqual([
      '  add(x: number): number {',
      '    this.items.push(x);',
      '… (3 more lines)',
    ]);
    expect(diff.after).toEqual(['  add(x: number): number {}']);
  });
});

describe('equivalent-mutants.json', () => {
  const entry = (fields: Partial<EquivalentEntry> & Record<string, unknown>): string =>
    JSON.stringify({
      mutants: [
        {
          mutator: 'EqualityOperator',
          original: 'a > 1',
          replacement: 'a >= 1',
          reason: 'why',
          ...fields,
        },
      ],
    });

  test('reads mutator, original, replacement, an optional line, and a reason', () => {
    const text = JSON.stringify({
      about: 'what this is',
      mutants: [
        {
          mutator: 'EqualityOperator',
          line: 6,
          original: 'this.items.length >\n      3',
          replacement: 'this.items.length >= 3',
          reason: 'the queue keeps one more item, which no answer shows',
        },
      ],
    });
    expect(parseEquivalents(text, 'f.json')).toEqual([
      {
        mutator: 'EqualityOperator',
        line: 6,
        // White space runs read as one space.
        original: 'this.items.length > 3',
        replacement: 'this.items.length >= 3',
        reason: 'the queue keeps one more item, which no answer shows',
      },
    ]);
    expect(parseEquivalents('{"mutants": []}', 'f.json')).toEqual([]);
  });

  test('reads "kind": "slower-only", a mutant that answers the same and only costs more', () => {
    expect(parseEquivalents(entry({ kind: 'slower-only' }), 'f.json')).toEqual([
      {
        mutator: 'EqualityOperator',
        original: 'a > 1',
        replacement: 'a >= 1',
        reason: 'why',
        kind: 'slower-only',
      },
    ]);
  });

  test.each([
    ['not JSON', '{', /f\.json: not JSON/],
    ['a list', '[]', /must be an object with a "mutants" list/],
    ['no list', '{}', /"mutants" must be a list/],
    ['an unknown top field', '{"mutants": [], "x": 1}', /unknown field "x"/],
    ['a bad about', '{"mutants": [], "about": 1}', /"about" must be a string/],
    ['an entry not an object', '{"mutants": [1]}', /mutants\[0\] must be an object/],
    [
      'no reason',
      entry({ reason: undefined }),
      /mutants\[0\]: "reason" must be a non-empty string/,
    ],
    ['an empty reason', entry({ reason: '' }), /"reason" must be a non-empty string/],
    ['a reason of two lines', entry({ reason: 'one\ntwo' }), /"reason" must be one line/],
    ['no mutator', entry({ mutator: 7 as unknown as string }), /"mutator" must be/],
    ['a bad line', entry({ line: 0 }), /"line" must be a whole number/],
    ['a bad column', entry({ column: 1.5 }), /"column" must be a whole number/],
    ['an empty context', entry({ context: '' }), /"context" must be a non-empty string/],
    ['an unknown field', entry({ id: 3 }), /unknown field "id"/],
    ['an unknown kind', entry({ kind: 'slow' as 'slower-only' }), /"kind" must be "slower-only"/],
  ])('refuses %s, in one line that says where', (_, text, message) => {
    expect(() => parseEquivalents(text, 'f.json')).toThrow(EquivalentsError);
    expect(() => parseEquivalents(text, 'f.json')).toThrow(message);
  });

  test('matches by mutator, original and replacement; a line only when given; stale otherwise', async () => {
    const source =
      'export function f(a: number): number {\n  if (a > 1) return 1;\n  if (a > 1) return 2;\n  return 3;\n}\n';
    const { mutants } = await generateMutants(source, 'f.ts');
    const both = find(mutants, 'EqualityOperator', 'a >= 1');
    expect(both).toHaveLength(2);
    const [first, second] = both as [Mutant, Mutant];
    const everywhere: EquivalentEntry = {
      mutator: 'EqualityOperator',
      original: 'a > 1',
      replacement: 'a >= 1',
      reason: 'r',
    };
    const onLine3 = { ...everywhere, line: 3 };
    const wrongMutator = { ...everywhere, mutator: 'ConditionalExpression' };
    const gone = { ...everywhere, original: 'a > 2' };
    const { byMutant, stale } = matchEquivalents([onLine3, wrongMutator, gone], mutants);
    expect([...byMutant.keys()]).toEqual([second.id]);
    expect(byMutant.get(second.id)).toBe(onLine3);
    expect(stale).toEqual([wrongMutator, gone]);
    const all = matchEquivalents([everywhere], mutants);
    expect([...all.byMutant.keys()].sort()).toEqual([first.id, second.id].sort());
    expect(all.stale).toEqual([]);
    // The line's text picks one place whatever is added above it.
    const inContext = { ...everywhere, context: 'if (a > 1) return 2;' };
    expect([...matchEquivalents([inContext], mutants).byMutant.keys()]).toEqual([second.id]);
  });

  test('entryFor gives the entry to paste: its context, and its column where the line has two', async () => {
    const source =
      'export function f(a: number): number[] {\n  if (a > 1) return [0, 0];\n  return [a];\n}\n';
    const { mutants } = await generateMutants(source, 'f.ts');
    const [equality] = find(mutants, 'EqualityOperator', 'a >= 1');
    expect(entryFor(equality as Mutant, mutants)).toEqual({
      mutator: 'EqualityOperator',
      context: 'if (a > 1) return [0, 0];',
      original: 'a > 1',
      replacement: 'a >= 1',
      reason: '…',
    });
    const zeros = find(mutants, 'NumberLiteral', '1').filter((m) => m.original === '0');
    expect(zeros).toHaveLength(2);
    const entries = zeros.map((m) => entryFor(m, mutants));
    expect(entries.map((e) => e.column)).toEqual([22, 25]);
    for (const [i, entry] of entries.entries()) {
      expect([...matchEquivalents([entry], mutants).byMutant.keys()]).toEqual([zeros[i]?.id]);
    }
  });
});

test.each([
  ['compile-error', 0, 0, 'compile'],
  ['wrong-answer', 0, 3, 'verdict'],
  ['time-limit-exceeded', 3, 3, 'verdict'],
  ['accepted', 2, 3, 'follow-up'],
  ['accepted', 3, 3, 'survived'],
  ['accepted', 0, 0, 'survived'],
])('a mutant judged %s with follow-ups %i/%i: %s', (verdict, passed, total, fate) => {
  expect(fateOf({ verdict, followUps: { passed, total } })).toBe(fate);
});

describe('npm run mutate', () => {
  test('--help, and bad arguments in one line with exit code 2', async () => {
    const help = captureIO();
    expect(await runCommand((io) => mutate(['--help'], io), help)).toBe(0);
    expect(help.stdout.join('\n')).toMatch(/^usage: npm run mutate \[problem\.\.\.\]/);
    for (const [argv, message] of [
      [['--jobs', '0'], /--jobs 0 must be a whole number/],
      [['933', '362', '--mutant', '1'], /--mutant needs exactly one problem named/],
      [['933', '--mutant', 'x'], /--mutant x must be a mutant's number/],
      [['933', '--mutant', '100000'], /933 has mutants 1 to \d+: no mutant 100000/],
      [['nope'], /Unknown problem "nope"/],
    ] as const) {
      const io = captureIO();
      expect(await runCommand((io) => mutate([...argv], io), io)).toBe(2);
      expect(io.stderr.join('\n')).toMatch(message);
    }
  });

  test('a broken equivalent-mutants.json is refused with exit code 2', async () => {
    const dir = path.join(scratchDir('mutate-json'), 'solutions', '933');
    mkdirSync(dir, { recursive: true });
    const [real] = loadProblems().filter((p) => p.id === '933');
    const reference = path.join(dir, 'solution.ts');
    writeFileSync(reference, readFileSync(real!.referenceFile, 'utf8'));
    writeFileSync(path.join(dir, EQUIVALENTS_FILE), '{"mutants": [{}]}');
    const io = captureIO();
    const code = await runCommand(
      (io) => mutate(['933'], io, [{ ...real!, referenceFile: reference }]),
      io,
    );
    expect(code).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/equivalent-mutants\.json: mutants\[0\]: "mutator"/);
  });

  test('a reference the suite rejects stops its problem; stale entries are reported', async () => {
    const [real] = loadProblems().filter((p) => p.id === '933');
    const dir = path.join(scratchDir('mutate-broken'), 'solutions', real!.dir);
    mkdirSync(dir, { recursive: true });
    const reference = path.join(dir, 'solution.ts');
    const source = readFileSync(real!.referenceFile, 'utf8');
    writeFileSync(reference, source.replace('t - this.window', 't - this.window - 1'));
    writeFileSync(
      path.join(dir, EQUIVALENTS_FILE),
      JSON.stringify({
        mutants: [{ mutator: 'NumberLiteral', original: '42', replacement: '43', reason: 'gone' }],
      }),
    );
    const io = captureIO();
    const code = await runCommand(
      (io) => mutate(['933', '--jobs', '1'], io, [{ ...real!, referenceFile: reference }]),
      io,
    );
    const out = io.stdout.join('\n');
    expect(code).toBe(1);
    expect(out).toMatch(
      /^933 +the reference itself is not accepted in full \(rejected: Wrong Answer\)$/m,
    );
    expect(out).toContain(
      '933: equivalent-mutants.json lists a mutant that no longer exists: NumberLiteral "42" -> "43"',
    );
    expect(out).toMatch(/Killed 0\/0 non-equivalent mutants/);
  });

  // A copy of 933's reference with a constant nothing reads: its mutants survive whatever the
  // suite holds. Judged for real (a few seconds): one listed as equivalent, one not, and a mutant
  // the suite kills listed as equivalent by mistake.
  test('reports equivalents, fails on a survivor and on a killed mutant listed as equivalent', async () => {
    const [real] = loadProblems().filter((p) => p.id === '933');
    const source = `${readFileSync(real!.referenceFile, 'utf8')}\nexport const UNUSED = 7;\n`;
    const dir = path.join(scratchDir('mutate-run'), 'solutions', real!.dir);
    mkdirSync(dir, { recursive: true });
    const reference = path.join(dir, 'solution.ts');
    writeFileSync(reference, source);
    const { mutants } = await generateMutants(source, reference);
    const [eight] = find(mutants, 'NumberLiteral', '8');
    const [six] = find(mutants, 'NumberLiteral', '6');
    const [plus] = find(mutants, 'ArithmeticOperator', 't + this.window');
    writeFileSync(
      path.join(dir, EQUIVALENTS_FILE),
      JSON.stringify({
        mutants: [
          { mutator: 'NumberLiteral', original: '7', replacement: '8', reason: 'nothing reads it' },
          {
            mutator: 'ArithmeticOperator',
            original: 't - this.window',
            replacement: 't + this.window',
            reason: 'wrongly listed',
          },
        ],
      }),
    );
    const io = captureIO();
    const argv = ['933', '--jobs', '1', '--verbose'];
    for (const m of [eight, six, plus]) argv.push('--mutant', String(m!.id));
    const code = await runCommand(
      (io) => mutate(argv, io, [{ ...real!, referenceFile: reference }]),
      io,
    );
    const out = io.stdout.join('\n');
    expect(code).toBe(1);
    expect(out).toMatch(/^933 +3 +1 +0 +0 +1 +1 +[\d.]+s$/m);
    expect(out).toContain(
      `933 #${eight!.id} · solution.ts:${eight!.line}:${eight!.column} · NumberLiteral · equivalent: nothing reads it`,
    );
    expect(out).toContain(
      `933 #${six!.id} · solution.ts:${six!.line}:${six!.column} · NumberLiteral · survived`,
    );
    expect(out).toContain('    - export const UNUSED = 7;\n    + export const UNUSED = 6;');
    expect(out).toContain(
      `lists #${plus!.id} (ArithmeticOperator "t - this.window" -> "t + this.window") as equivalent, but it was killed: Wrong Answer`,
    );
    expect(out).toMatch(/Killed 1\/2 non-equivalent mutants · 1 equivalent · 0 do not compile/);
  });
});

test('scripts/mutate.ts runs the command and sets its exit code', async () => {
  const saved = { argv: process.argv, exitCode: process.exitCode };
  const errorListeners = process.stdout.listeners('error');
  const stderr: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr.push(String(chunk));
    return true;
  });
  try {
    process.argv = [process.execPath, 'launch.mjs', '--jobs', 'many'];
    await import('../../scripts/mutate.ts');
    expect(process.exitCode).toBe(2);
    expect(stderr.join('')).toMatch(/^error: --jobs many must be a whole number/);
  } finally {
    vi.restoreAllMocks();
    process.argv = saved.argv;
    process.exitCode = saved.exitCode;
    for (const listener of process.stdout.listeners('error')) {
      if (!errorListeners.includes(listener)) {
        process.stdout.off('error', listener as (...args: unknown[]) => void);
      }
    }
  }
});
