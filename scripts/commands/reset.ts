// `npm run reset <problem> | --all [--yes]`: puts the stub back as it was shipped. The only command
// that writes into problems/, so it never loses a learner's file: each one is copied to
// .kata/backups/ first, and a file that is already the pristine stub is left alone.
import {
  constants,
  copyFileSync,
  lstatSync,
  mkdirSync,
  readlinkSync,
  renameSync,
  statSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { pristineStubFile, readMaterialFile } from '../../harness/learner/learning.ts';
import { ensureDir, reason, removeQuietly } from '../../harness/learner/state.ts';
import { describeNonRegular, kindOf, readRegularFile, shownPath } from '../../harness/read-file.ts';
import { STATE_DIR } from '../../harness/paths.ts';
import { loadProblems, type Problem } from '../../harness/judge/problems.ts';
import { escapeControl } from '../../harness/escape.ts';
import { WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { parse, resolveProblem, UsageError, type IO } from '../lib/cli.ts';
import { agreed, type Asker } from '../lib/confirm.ts';
import { readMaterial } from './hint.ts';

export { shownPath };

export const BACKUP_DIR = path.join(STATE_DIR, 'backups');

/**
 * What is at problems/<dir>/solution.ts. A link is never written through: reset replaces the link
 * itself, and backs up what it leads to when that is a file. A folder, pipe or device is left alone.
 */
type Stub =
  | { kind: 'missing' }
  | { kind: 'file'; bytes: number }
  /** `file` when the link leads to a regular file, whose content is then backed up. */
  | { kind: 'link'; target: string; file: boolean; why: string };

function inspect(problem: Problem): Stub {
  const shown = shownPath(problem.stubFile);
  let stats;
  try {
    stats = lstatSync(problem.stubFile);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    throw new UsageError(`cannot look at ${shown}: ${reason(error)}`);
  }
  if (stats.isFile()) return { kind: 'file', bytes: stats.size };
  if (stats.isSymbolicLink()) {
    const target = escapeControl(readlinkSync(problem.stubFile));
    let leadsTo: Stats;
    try {
      leadsTo = statSync(problem.stubFile);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOENT' || code === 'ENOTDIR'
          ? 'which leads nowhere'
          : code === 'ELOOP'
            ? 'which loops back on itself'
            : `which cannot be followed: ${reason(error)}`;
      return { kind: 'link', target, file: false, why };
    }
    if (leadsTo.isFile()) return { kind: 'link', target, file: true, why: '' };
    return { kind: 'link', target, file: false, why: `which leads to ${kindOf(leadsTo)}` };
  }
  throw new UsageError(
    `${shown} is ${describeNonRegular(problem.stubFile, stats)}, not a file: reset leaves it as ` +
      `it is; move it away yourself, then run reset again.`,
  );
}

/** Whether solution.ts is the stub as shipped (a link to a copy of the stub counts too). */
function isPristine(problem: Problem, stub: Stub): boolean {
  const pristine = readMaterial(problem, 'pristine stub', () =>
    readMaterialFile(pristineStubFile(problem)),
  );
  if (stub.kind === 'missing' || (stub.kind === 'link' && !stub.file)) return false;
  // A file of another size is not the stub: no need to read it (it may be huge).
  if (stub.kind === 'file' && stub.bytes !== Buffer.byteLength(pristine)) return false;
  try {
    const read = readRegularFile(problem.stubFile, Buffer.byteLength(pristine));
    return read.kind === 'text' && read.text === pristine;
  } catch {
    return false;
  }
}

/** `<problem-dir>-<time>.ts`, the time made safe for any file system; never overwrites a backup. */
function backupFile(problem: Problem, now: Date, n: number): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return path.join(BACKUP_DIR, `${problem.dir}-${stamp}${n > 1 ? `-${n}` : ''}.ts`);
}

/** Copies the learner's file (through a link) to a new backup; copying never overwrites one. */
function backUp(problem: Problem): string {
  ensureDir(BACKUP_DIR, 'the backup of your solution');
  const now = new Date();
  for (let n = 1; ; n++) {
    const backup = backupFile(problem, now, n);
    try {
      copyFileSync(problem.stubFile, backup, constants.COPYFILE_EXCL);
      return backup;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw new UsageError(
        `cannot back up ${shownPath(problem.stubFile)}: ${reason(error)}; nothing was reset`,
      );
    }
  }
}

/**
 * Writes the stub beside solution.ts and renames it over: the rename replaces whatever entry is
 * there (a file, a link) and never writes into what a link leads to.
 */
function writeStub(problem: Problem): void {
  const dir = path.dirname(problem.stubFile);
  const temporary = path.join(dir, `.solution.ts.${process.pid}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    copyFileSync(pristineStubFile(problem), temporary);
    renameSync(temporary, problem.stubFile);
  } catch (error) {
    removeQuietly(temporary);
    throw new UsageError(
      `cannot write the stub to ${shownPath(problem.stubFile)}: ${reason(error)}`,
    );
  }
}

/** Backs up the learner's file (if there is one), then puts the pristine stub in its place. */
function resetOne(problem: Problem, stub: Stub, io: IO): void {
  const shown = shownPath(problem.stubFile);
  let saved = `${shown} was missing`;
  // Copied before anything is replaced: if this throws, the learner's file is untouched.
  if (stub.kind === 'file') saved = `your file is saved as ${shownPath(backUp(problem))}`;
  if (stub.kind === 'link') {
    saved = stub.file
      ? `it replaces a link to ${stub.target} (left as it is), whose content is saved as ` +
        shownPath(backUp(problem))
      : `it replaces a link to ${stub.target}, ${stub.why}: nothing to back up`;
  }
  writeStub(problem);
  io.out(wrap(`${io.style.green('✓')} ${problem.id}: stub restored; ${saved}`, WIDTH, '  '));
}

export async function reset(argv: string[], io: IO & Asker): Promise<number> {
  const { values, positionals } = parse(argv, {
    command: 'reset',
    args: '<problem>',
    maxArgs: 1,
    synopsis: ['npm run reset <problem> [-- --yes]', 'npm run reset -- --all [--yes]'],
    summary: 'Puts the stub back as shipped; your file is first copied to the backups.',
    options: {
      all: { type: 'boolean', default: false, help: 'every problem whose file you have changed' },
      yes: {
        type: 'boolean',
        short: 'y',
        default: false,
        help: 'do not ask (needed without a terminal)',
      },
    },
    example: 'npm run reset -- 933 --yes',
  });
  if (values.all === positionals.length > 0) {
    throw new UsageError('name one problem or --all: npm run reset 933, or npm run reset -- --all');
  }
  const problems = loadProblems();
  const chosen = values.all ? problems : [resolveProblem(problems, positionals[0] as string)];
  // Every file is looked at before anything is asked or changed: a folder named solution.ts stops
  // the command with nothing reset.
  const stubs = new Map(chosen.map((problem) => [problem, inspect(problem)]));
  const pristine = chosen.filter((problem) => isPristine(problem, stubs.get(problem) as Stub));
  const changed = chosen.filter((problem) => !pristine.includes(problem));
  if (changed.length === 0) {
    // The problem named is answered for; --all speaks only of the files it changes, here none.
    const named = chosen[0] as Problem;
    io.out(
      io.style.dim(
        values.all
          ? 'Every stub is already as shipped: nothing to reset.'
          : `${named.id}: already the stub as shipped, nothing to reset`,
      ),
    );
    return 0;
  }

  const what =
    changed.length === 1
      ? shownPath((changed[0] as Problem).stubFile)
      : `${changed.length} solutions (${changed.map((p) => p.id).join(', ')})`;
  const question = `Replace ${what} with the stub as shipped? A backup is kept.`;
  if (!(await agreed(question, values.yes, io, 'reset'))) {
    io.out('Nothing was reset.');
    return 1;
  }
  for (const problem of changed) resetOne(problem, stubs.get(problem) as Stub, io);
  return 0;
}
