// A suite's cases written out as text, the same every time: to prove that a change to how suites
// are written (a builder moved into harness/, a case built by a helper) changes no case. Take the
// snapshot before and after and compare the files byte for byte:
//   npx tsx test/suite-snapshot.ts <folder> [problem-dir…]   (every suite when none is named)
// It writes <folder>/<problem-dir>.txt. A case is written whole: its header (name, tier, trap, hint,
// fixtures, limits…), its calls with what each expects; a generated case by its count and a
// checksum (and its first calls); a property case by the sequences fast-check draws with the
// judge's own seed, as the judge's run would meet them, and by the counterexample one fixed failing
// predicate shrinks to (so that the arbitrary's structure, not only its first draws, is pinned);
// a scenario by its source. The suite's picture is read over every fixed case.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import {
  decode,
  isFixed,
  isGenerated,
  isProperty,
  isScenario,
  type Call,
  type Case,
  type Encoded,
  type Suite,
} from '../harness/suite.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOLUTIONS = path.join(ROOT, 'solutions');

/** The judge's seed for property cases, read from where the judge declares it. */
export function propertySeed(): number {
  const source = readFileSync(path.join(ROOT, 'harness/judge/child/run-case.ts'), 'utf8');
  const found = /const PROPERTY_SEED = (\d+);/.exec(source);
  if (found === null) throw new Error('PROPERTY_SEED not found in harness/judge/child/run-case.ts');
  return Number(found[1]);
}

/** Strings longer than this are written as their length, a checksum and their start. */
const LONG = 120;
/** A generated case's calls written out in full before only the checksum counts. */
const SHOWN_CALLS = 25;

const sha = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** A value as text: every number exactly (NaN, ±Infinity, -0), keys in their own order. */
export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') {
    return value.length > LONG
      ? `<${value.length} chars ${sha(value)} ${JSON.stringify(value.slice(0, 40))}…>`
      : JSON.stringify(value);
  }
  if (typeof value === 'function') return `[function ${value.name}]`;
  if (Array.isArray(value)) return `[${value.map(show).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${show(v)}`);
    return `{${entries.join(', ')}}`;
  }
  return String(value);
}

const showCall = (call: Call): string =>
  `${call.target ?? 0} ${call.method}(${call.args.map(show).join(', ')}) -> ${show(call.expected)}`;

/** The fields of a case other than its calls. */
function header(c: Case): string[] {
  const skip = new Set([
    'methods',
    'args',
    'expected',
    'targets',
    'generate',
    'property',
    'scenario',
  ]);
  return Object.entries(c)
    .filter(([key]) => !skip.has(key))
    .map(([key, value]) => `  ${key}: ${show(value)}`);
}

function encodedLines(encoded: Encoded): string[] {
  return decode(encoded).map((call) => `    ${showCall(call)}`);
}

/** What the suite's picture reads of a list of calls (it is fed them as the judge feeds it). */
function pictureLines(suite: Suite, c: Case, calls: Call[]): string[] {
  if (suite.picture === undefined) return [];
  try {
    const reader = suite.picture(c.fixtures ?? {});
    const moments = calls.map((call) => reader.read(call));
    const lines = [`  picture: ${moments.map(show).join(' ')}`];
    const last = [...moments].reverse().find((m) => m.lane !== undefined);
    if (last?.lane !== undefined) {
      const { at, lane } = last;
      lines.push(
        `  picture at ${at} on ${lane}: windows ${show(reader.windows?.(at, lane))}, level ` +
          `${show(reader.level && [reader.level.name, reader.level.capacity(lane), reader.level.at(at, lane)])}` +
          `, until ${show(reader.until?.(lane))}, origin ${show(reader.origin?.())}`,
      );
    }
    return lines;
  } catch (error) {
    return [`  picture threw: ${String(error)}`];
  }
}

function generatedLines(generate: (emit: (call: Call) => void) => void): string[] {
  const hash = createHash('sha256');
  const lines: string[] = [];
  let count = 0;
  generate((call) => {
    const line = showCall(call);
    hash.update(line).update('\n');
    if (count < SHOWN_CALLS) lines.push(`    ${line}`);
    count++;
  });
  return [`  generated: ${count} calls, sha256 ${hash.digest('hex')}`, ...lines];
}

function propertyLines(
  c: Case & { property: { calls: fc.Arbitrary<Encoded>; numRuns?: number } },
): string[] {
  const seed = propertySeed();
  const numRuns = c.property.numRuns ?? 100;
  const lines = [`  property: ${numRuns} runs, seed ${seed}`];
  // The judge's own call: fc.check of a property over the case's arbitrary, with its seed.
  let run = 0;
  fc.check(
    fc.property(c.property.calls, (encoded) => {
      lines.push(`   run ${run++}`, ...encodedLines(encoded));
      return true;
    }),
    { seed, numRuns },
  );
  // A predicate that fails on most sequences, to pin how they shrink.
  const shrunk = fc.check(
    fc.property(c.property.calls, (encoded) => encoded.methods.length < 6),
    { seed, numRuns },
  );
  lines.push(`   shrinks: ${shrunk.numShrinks}, path ${show(shrunk.counterexamplePath)}`);
  if (shrunk.counterexample) lines.push(...encodedLines(shrunk.counterexample[0]));
  return lines;
}

/** One suite, as text. */
export async function snapshotSuite(dir: string): Promise<string> {
  const file = path.join(SOLUTIONS, dir, 'suite.ts');
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown> & {
    default: Suite;
  };
  const suite = module.default;
  const lines = [`# ${dir}`];
  for (const [key, value] of Object.entries(suite)) {
    if (key === 'cases') continue;
    lines.push(`${key}: ${key === 'equals' ? String(value) : show(value)}`);
  }
  for (const [name, value] of Object.entries(module)) {
    if (name !== 'default') lines.push(`export ${name}: ${show(value)}`);
  }
  for (const c of suite.cases) {
    lines.push('', `case ${JSON.stringify(c.name)}`, ...header(c));
    if (isFixed(c)) {
      const calls = decode(c);
      lines.push(...calls.map((call) => `    ${showCall(call)}`), ...pictureLines(suite, c, calls));
    } else if (isGenerated(c)) lines.push(...generatedLines(c.generate));
    else if (isProperty(c)) lines.push(...propertyLines(c));
    else if (isScenario(c)) lines.push(`  scenario: ${String(c.scenario)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Every problem folder with a suite. */
export function suiteDirs(): string[] {
  return readdirSync(SOLUTIONS)
    .filter((dir) => existsSync(path.join(SOLUTIONS, dir, 'suite.ts')))
    .sort();
}

async function main(args: string[]): Promise<void> {
  const [out, ...only] = args;
  if (out === undefined) {
    console.error('usage: npx tsx test/suite-snapshot.ts <folder> [problem-dir…]');
    process.exit(2);
  }
  mkdirSync(out, { recursive: true });
  for (const dir of only.length > 0 ? only : suiteDirs()) {
    const text = await snapshotSuite(dir);
    writeFileSync(path.join(out, `${dir}.txt`), text);
    console.log(`${sha(text)} ${text.length} ${dir}`);
  }
}

if (
  process.argv[1] !== undefined &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  await main(process.argv.slice(2));
}
