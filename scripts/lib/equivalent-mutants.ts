// equivalent-mutants.json: the survivors of `npm run mutate` (mutants.ts) that no suite can kill,
// read, checked against the mutants of today's reference, and written as entries for the author.
//
// The file, beside the reference (solutions/<dir>/), documents the survivors that
// are equivalent:
//
//   {
//     "about": "optional: one line on what the file is",
//     "mutants": [
//       {
//         "mutator": "EqualityOperator",
//         "context": "if (this.head > 1024 && this.head * 2 > this.times.length) {",
//         "original": "this.head > 1024",
//         "replacement": "this.head >= 1024",
//         "reason": "the threshold only decides when the array is compacted, which no answer shows"
//       }
//     ]
//   }
//
// `mutator`, `original` (the text replaced, its runs of white space read as one space) and
// `replacement` (as `npm run mutate -- --verbose` shows it) identify the mutant whatever else the
// file gains or loses. When the same change can be made in more than one place (a `0` made `1`),
// `context` (the source line where the replaced text starts, trimmed) says which, and `column`
// (1-based, where it starts in that line) which of two on one line; `line` (1-based) may stand
// in for `context`, but it shifts whenever a line is added above. An entry stands for every place
// that matches all the fields it gives. `reason` says in one line why no suite can tell the mutant from the reference. An
// entry that matches no mutant, or matches one that gets killed, is an error: the list must say
// what is true now.
//
// `"kind": "slower-only"` marks a mutant that answers like the reference everywhere but costs more
// time or memory, by less than any case a grade can afford would show with the judge's 10x margins
// both ways (a compaction that runs a little more often, a loop that walks a few steps too many).
// Its reason states the slowdown as measured and the size of case that would show it. The command
// counts these apart from the truly equivalent, so the score never hides them.
import { oneLine, type Mutant } from './mutants.ts';

/** One entry of equivalent-mutants.json. */
export interface EquivalentEntry {
  mutator: string;
  original: string;
  replacement: string;
  context?: string;
  line?: number;
  column?: number;
  reason: string;
  /** Answers the same and costs more, below what a case can show (see the top of the file). */
  kind?: 'slower-only';
}

/** The values of an entry's `kind`; without one it is equivalent outright. */
const KINDS = ['slower-only'] as const;

export class EquivalentsError extends Error {}

const ENTRY_KEYS = new Set([
  'mutator',
  'context',
  'line',
  'column',
  'original',
  'replacement',
  'reason',
  'kind',
]);

/** Reads the text of an equivalent-mutants.json, or says in one line what is wrong with it. */
export function parseEquivalents(text: string, where: string): EquivalentEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new EquivalentsError(`${where}: not JSON (${(error as Error).message})`);
  }
  const top = data as { about?: unknown; mutants?: unknown };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new EquivalentsError(`${where}: must be an object with a "mutants" list`);
  }
  const unknownTop = Object.keys(data).filter((key) => key !== 'about' && key !== 'mutants');
  if (unknownTop.length > 0) {
    throw new EquivalentsError(`${where}: unknown field "${unknownTop[0]}" (has: about, mutants)`);
  }
  if (top.about !== undefined && typeof top.about !== 'string') {
    throw new EquivalentsError(`${where}: "about" must be a string`);
  }
  if (!Array.isArray(top.mutants)) {
    throw new EquivalentsError(`${where}: "mutants" must be a list`);
  }
  return top.mutants.map((raw, i): EquivalentEntry => {
    const at = `${where}: mutants[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new EquivalentsError(`${at} must be an object`);
    }
    const entry = raw as Record<string, unknown>;
    const extra = Object.keys(entry).find((key) => !ENTRY_KEYS.has(key));
    if (extra !== undefined) {
      throw new EquivalentsError(
        `${at}: unknown field "${extra}" (has: ${[...ENTRY_KEYS].join(', ')})`,
      );
    }
    for (const key of ['mutator', 'original', 'replacement', 'reason'] as const) {
      if (typeof entry[key] !== 'string' || (key !== 'replacement' && entry[key] === '')) {
        throw new EquivalentsError(`${at}: "${key}" must be a non-empty string`);
      }
    }
    if (/\n/.test(entry.reason as string)) {
      throw new EquivalentsError(`${at}: "reason" must be one line`);
    }
    if (
      entry.context !== undefined &&
      (typeof entry.context !== 'string' || entry.context === '')
    ) {
      throw new EquivalentsError(`${at}: "context" must be a non-empty string`);
    }
    if (entry.kind !== undefined && !(KINDS as readonly unknown[]).includes(entry.kind)) {
      throw new EquivalentsError(
        `${at}: "kind" must be ${KINDS.map((k) => `"${k}"`).join(' or ')}`,
      );
    }
    for (const key of ['line', 'column'] as const) {
      const n = entry[key];
      if (n !== undefined && !(Number.isInteger(n) && (n as number) > 0)) {
        throw new EquivalentsError(`${at}: "${key}" must be a whole number (1 or more)`);
      }
    }
    return {
      mutator: entry.mutator as string,
      original: oneLine(entry.original as string),
      replacement: entry.replacement as string,
      ...(entry.context !== undefined ? { context: oneLine(entry.context as string) } : {}),
      ...(entry.line !== undefined ? { line: entry.line as number } : {}),
      ...(entry.column !== undefined ? { column: entry.column as number } : {}),
      reason: entry.reason as string,
      ...(entry.kind !== undefined ? { kind: entry.kind as 'slower-only' } : {}),
    };
  });
}

function matches(entry: EquivalentEntry, mutant: Mutant): boolean {
  return (
    entry.mutator === mutant.mutator &&
    entry.replacement === mutant.replacement &&
    entry.original === oneLine(mutant.original) &&
    (entry.context === undefined || entry.context === mutant.context) &&
    (entry.line === undefined || entry.line === mutant.line) &&
    (entry.column === undefined || entry.column === mutant.column)
  );
}

/**
 * Which entry, if any, declares each mutant equivalent (by id), and the entries that match no
 * mutant at all (stale: the reference changed since they were written).
 */
export function matchEquivalents(
  entries: EquivalentEntry[],
  mutants: Mutant[],
): { byMutant: Map<number, EquivalentEntry>; stale: EquivalentEntry[] } {
  const byMutant = new Map<number, EquivalentEntry>();
  const stale: EquivalentEntry[] = [];
  for (const entry of entries) {
    const hits = mutants.filter((mutant) => matches(entry, mutant));
    if (hits.length === 0) stale.push(entry);
    for (const mutant of hits) if (!byMutant.has(mutant.id)) byMutant.set(mutant.id, entry);
  }
  return { byMutant, stale };
}

/**
 * The entry that would list `mutant` as equivalent, its reason still to write: with `context`,
 * and `column` too when another mutant of the file would match it without.
 */
export function entryFor(mutant: Mutant, all: Mutant[]): EquivalentEntry {
  const entry: EquivalentEntry = {
    mutator: mutant.mutator,
    context: mutant.context,
    original: oneLine(mutant.original),
    replacement: mutant.replacement,
    reason: '…',
  };
  const alike = all.filter((other) => matches(entry, other));
  if (alike.length > 1) {
    const { reason, ...rest } = entry;
    return { ...rest, column: mutant.column, reason };
  }
  return entry;
}

/** An entry as the command shows it. */
export function describeEntry(entry: EquivalentEntry): string {
  const place = [
    entry.line !== undefined ? `line ${entry.line}` : '',
    entry.column !== undefined ? `column ${entry.column}` : '',
  ].filter(Boolean);
  const line = place.length > 0 ? `${place.join(' ')} ` : '';
  const context = entry.context !== undefined ? ` in ${JSON.stringify(entry.context)}` : '';
  return `${line}${entry.mutator} ${JSON.stringify(entry.original)} -> ${JSON.stringify(entry.replacement)}${context}`;
}
