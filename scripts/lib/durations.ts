// How long each problem took to judge last time, to start the longest first. Two lanes that take
// problems in ladder order can end with one lane judging a heavy problem alone while the other
// waits; longest first (as test runners order files by their last duration) keeps both busy to the
// end. Only the order of work changes: reports still come back in ladder order.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SCRATCH_DIR } from '../../harness/judge/compile.ts';

const FILE = path.join(SCRATCH_DIR, 'grade-durations.json');

type Durations = Record<string, number>;

function read(file: string): Durations {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, number] => {
        const ms = entry[1];
        return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0;
      }),
    );
  } catch {
    return {}; // none yet, or unreadable: ladder order
  }
}

/**
 * The indices of `keys` in the order to start them: longest last time first; one never timed
 * before counts as the longest (it may be anything); ties keep their order.
 */
export function longestFirst(keys: string[], file = FILE): number[] {
  const known = read(file);
  const cost = (key: string): number => known[key] ?? Infinity;
  return keys
    .map((_, i) => i)
    .sort((a, b) => cost(keys[b] as string) - cost(keys[a] as string) || a - b);
}

/** Remembers how long each took (ms), beside what is known of the others. */
export function rememberDurations(durations: Durations, file = FILE): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ ...read(file), ...durations }));
    renameSync(temp, file);
  } catch {
    // only the order of the next grade is at stake
  }
}
