// The compatibility corpus, test/compat/<problem-dir>/ (see its README): each file declares in its
// header the verdict it must get. Read here, once, for the corpus's own test and for the bench.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../harness/paths.ts';

export const COMPAT_DIR = path.join(REPO_ROOT, 'test', 'compat');

export interface CompatExpectation {
  verdict: string;
  /** The trap of the first case that fails; null when none has one (an example, or no case ran). */
  trap: string | null;
  /** Text the report's message (or else that case's message) must contain. */
  message?: string;
  /** `// expect-follow-ups: passed`: the follow-ups run too, and every one must pass. */
  followUps: boolean;
}

/** Reads `// expect: <verdict> [<trap>]`, `// expect-message: <text>` and `// expect-follow-ups: passed`. */
export function readCompatExpectation(file: string): CompatExpectation {
  const source = readFileSync(file, 'utf8');
  const lines = [...source.matchAll(/^\/\/ expect: ([a-z-]+)(?: ([a-z0-9-]+))?$/gm)];
  if (lines.length !== 1) throw new Error(`${file} must declare one "// expect:" line`);
  const [, verdict, trap] = lines[0] as RegExpExecArray;
  const message = /^\/\/ expect-message: (.+)$/m.exec(source)?.[1];
  const followUps = /^\/\/ expect-follow-ups: passed$/m.test(source);
  return { verdict: verdict as string, trap: trap ?? null, message, followUps };
}

/** A problem's corpus files whose header passes `keep`, by path, in name order. */
export function compatFiles(
  dir: string,
  keep: (expectation: CompatExpectation) => boolean,
  root = COMPAT_DIR,
): string[] {
  const folder = path.join(root, dir);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => path.join(folder, name))
    .filter((file) => keep(readCompatExpectation(file)));
}
