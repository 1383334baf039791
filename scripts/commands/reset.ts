// `npm run reset <problem> | --all [--yes]`: puts the stub back as it was shipped. The only command
// that writes into problems/, so it never loses a learner's file: each one is copied to
// .kata/backups/ first, and a file that is already the pristine stub is left alone.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pristineStubFile } from '../../harness/learner/learning.ts';
import { STATE_DIR } from '../../harness/paths.ts';
import { loadProblems, type Problem } from '../../harness/judge/problems.ts';
import { WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { parse, resolveProblem, UsageError, type IO } from '../lib/cli.ts';
import { agreed, type Asker } from '../lib/confirm.ts';
import { readMaterial } from './hint.ts';

export const BACKUP_DIR = path.join(STATE_DIR, 'backups');

/** A path as the learner would type it: relative when it lies below where they are. */
export function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

function isPristine(problem: Problem): boolean {
  const stub = readMaterial(problem, 'pristine stub', () =>
    readFileSync(pristineStubFile(problem), 'utf8'),
  );
  return existsSync(problem.stubFile) && readFileSync(problem.stubFile, 'utf8') === stub;
}

/** `<problem-dir>-<time>.ts`, the time made safe for any file system; never overwrites a backup. */
function backupFile(problem: Problem, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  let file = path.join(BACKUP_DIR, `${problem.dir}-${stamp}.ts`);
  for (let n = 2; existsSync(file); n++)
    file = path.join(BACKUP_DIR, `${problem.dir}-${stamp}-${n}.ts`);
  return file;
}

/** Backs up the learner's file (if there is one), then copies the pristine stub over it. */
function resetOne(problem: Problem, io: IO): void {
  const stub = shownPath(problem.stubFile);
  let saved = `${stub} was missing`;
  if (existsSync(problem.stubFile)) {
    const backup = backupFile(problem, new Date());
    mkdirSync(BACKUP_DIR, { recursive: true });
    // Copied before anything is overwritten: if this throws, the learner's file is untouched.
    copyFileSync(problem.stubFile, backup);
    saved = `your file is saved as ${shownPath(backup)}`;
  }
  mkdirSync(path.dirname(problem.stubFile), { recursive: true });
  copyFileSync(pristineStubFile(problem), problem.stubFile);
  io.out(wrap(`${io.style.green('✓')} ${problem.id}: stub restored; ${saved}`, WIDTH, '  '));
}

export async function reset(argv: string[], io: IO & Asker): Promise<number> {
  const { values, positionals } = parse(argv, {
    all: { type: 'boolean', default: false },
    yes: { type: 'boolean', short: 'y', default: false },
  });
  if (values.all === positionals.length > 0 || positionals.length > 1) {
    throw new UsageError('name one problem or --all: npm run reset 933, or npm run reset -- --all');
  }
  const problems = loadProblems();
  const chosen = values.all ? problems : [resolveProblem(problems, positionals[0] as string)];
  const pristine = chosen.filter(isPristine);
  for (const problem of pristine) {
    io.out(io.style.dim(`${problem.id}: already the stub as shipped, nothing to reset`));
  }
  const changed = chosen.filter((problem) => !pristine.includes(problem));
  if (changed.length === 0) return 0;

  const what =
    changed.length === 1
      ? shownPath((changed[0] as Problem).stubFile)
      : `${changed.length} solutions (${changed.map((p) => p.id).join(', ')})`;
  const question = `Replace ${what} with the stub as shipped? A backup is kept.`;
  if (!(await agreed(question, values.yes, io, 'reset'))) {
    io.out('Nothing was reset.');
    return 1;
  }
  for (const problem of changed) resetOne(problem, io);
  return 0;
}
