// `npm run progress [--export FILE | --import FILE | --reset [--yes]]`: where the learner stands, in
// one summary and one line per problem; or the record itself carried to and from another machine, or
// cleared (after a copy is kept under the state folder's backups/).
import {
  constants,
  copyFileSync,
  existsSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { PROBLEMS_DIR, STATE_DIR } from '../../harness/paths.ts';
import { loadProblems, type Problem } from '../../harness/judge/problems.ts';
import {
  checkRecord,
  loadProgress,
  MAX_PROGRESS_BYTES,
  mergeProgress,
  PROGRESS_FILE,
  updateProgress,
  withProgressLock,
  type ProblemProgress,
  type Progress,
} from '../../harness/learner/progress.ts';
import { ensureDir, reason as fileReason, StateError } from '../../harness/learner/state.ts';
import { readRegularFile, sizeText, type FileRead } from '../../harness/read-file.ts';
import { escapeControl } from '../../harness/escape.ts';
import { VERDICT_LABEL } from '../../harness/terminal/report.ts';
import { problemCell } from '../../harness/terminal/problem-cell.ts';
import { fitCell, wrap } from '../../harness/terminal/wrap.ts';
import { agreed, type Asker } from '../lib/confirm.ts';
import { historyLines } from '../lib/interview-screen.ts';
import { parse, shownArg, UsageError, type IO } from '../lib/cli.ts';

export const BACKUP_DIR = path.join(STATE_DIR, 'backups');

/**
 * Columns: problem (its id whole, then its title, which may be cut), verdict, then four counts
 * right-aligned; 79 columns in all.
 */
const PROBLEM = 33;
const VERDICT = 21;
const COUNT = 5;

const counts = (cells: string[]): string => cells.map((c) => c.padStart(COUNT)).join(' ');
const heading = (): string =>
  `${fitCell('problem', PROBLEM)} ${fitCell('verdict', VERDICT)} ` +
  counts(['tries', 'f-ups', 'hints', 'quiz']);

/** "2026-01-05 14:03 UTC" from an ISO time; anything else is shown as it is. */
export function when(iso: string): string {
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)[\d:.]*Z$/.exec(iso);
  // A hand-edited file may hold anything: shown escaped, and cut.
  return match ? `${match[1]} ${match[2]} UTC` : shownArg(String(iso));
}

const sum = (entries: ProblemProgress[], count: (e: ProblemProgress) => number): number =>
  entries.reduce((total, entry) => total + count(entry), 0);

function summary(problems: Problem[], progress: Progress, io: IO): string[] {
  const entries = problems
    .map((p) => progress.problems[p.dir])
    .filter((e): e is ProblemProgress => e !== undefined);
  const solved = entries.filter((e) => e.bestVerdict === 'accepted').length;
  const viewed = entries.filter((e) => e.solutionViewed);
  const quizzes = entries.flatMap((e) => (e.quiz ? [e.quiz] : []));
  const lines = [
    io.style.bold(
      `Solved ${solved}/${problems.length} · follow-ups passed ` +
        `${sum(entries, (e) => e.followUpsPassed)}/${sum(entries, (e) => e.followUpsTotal)}`,
    ),
    `Hints used: ${sum(entries, (e) => e.hintsUsed ?? 0)} · solutions looked at: ` +
      `${viewed.length} (${viewed.filter((e) => e.solutionViewedBeforeAccepted).length} before solving)`,
    quizzes.length === 0
      ? 'Quizzes: none taken yet'
      : `Quizzes: ${quizzes.length}/${problems.length} taken · best scores ` +
        `${quizzes.reduce((n, q) => n + q.best, 0)}/${quizzes.reduce((n, q) => n + q.total, 0)}` +
        ` · latest ${quizzes.reduce((n, q) => n + q.last, 0)}`,
  ];
  const all = Object.values(progress.problems);
  if (all.length > 0) {
    const first = all.map((e) => e.firstAttempted).reduce((a, b) => (b < a ? b : a));
    const last = all.map((e) => e.lastAttempted).reduce((a, b) => (b > a ? b : a));
    lines.push(`First activity ${when(first)} · last ${when(last)}`);
  }
  return lines;
}

function problemLine(problem: Problem, entry: ProblemProgress | undefined, io: IO): string {
  const head = `${problemCell(problem, PROBLEM)} `;
  if (!entry) return head + io.style.dim('not started');
  const label = VERDICT_LABEL[entry.bestVerdict];
  // Pad before colouring, so that escape codes do not upset the columns.
  const verdict =
    (entry.bestVerdict === 'accepted' ? io.style.green(label) : label) +
    ' '.repeat(VERDICT - label.length);
  return `${head}${verdict} ${counts([
    String(entry.attempts),
    `${entry.followUpsPassed}/${entry.followUpsTotal}`,
    String(entry.hintsUsed ?? 0),
    entry.quiz ? `${entry.quiz.best}/${entry.quiz.total}` : '-',
  ])}`;
}

function show(io: IO): number {
  const problems = loadProblems();
  const progress = loadProgress(io.err);
  const interviews = progress.interviews ?? [];
  if (Object.keys(progress.problems).length === 0 && interviews.length === 0) {
    io.out('Nothing recorded yet. Start with: npm run kata');
    return 0;
  }
  io.out(summary(problems, progress, io).join('\n'));
  io.out('');
  io.out(io.style.bold(heading()));
  for (const problem of problems) io.out(problemLine(problem, progress.problems[problem.dir], io));
  const known = new Set(problems.map((p) => p.dir));
  const others = Object.keys(progress.problems).filter((dir) => !known.has(dir));
  if (others.length > 0) {
    const names = others.map((dir) => shownArg(dir)).join(', ');
    io.out(io.style.dim(`\n${wrap(`Also recorded, not in this ladder: ${names}`)}`));
  }
  if (interviews.length > 0) {
    io.out(
      ['', io.style.bold('Interviews taken:'), ...historyLines(interviews, io.style)].join('\n'),
    );
  }
  return 0;
}

function inside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return !path.isAbsolute(relative) && relative.split(path.sep)[0] !== '..';
}

/** A path as the learner would type it: relative when under the current folder. */
function shown(file: string): string {
  return inside(process.cwd(), file) ? path.relative(process.cwd(), file) : file;
}

/** Why a file could not be read or written, in a few words. */
const reason = fileReason;

/** What is at a path, or undefined when nothing is (also when a folder on the way is a file). */
function statIfThere(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new UsageError(`cannot use ${shownArg(file)}: ${reason(error)}`);
  }
}

function exportTo(file: string, io: IO): number {
  // Learner files are sacred: nothing but `reset` writes into problems/.
  if (inside(PROBLEMS_DIR, path.resolve(file))) {
    throw new UsageError(
      `will not write into ${path.relative(process.cwd(), PROBLEMS_DIR)}/: choose another file`,
    );
  }
  // Writing to a pipe would wait for a reader forever; to a device, go who knows where.
  const existing = statIfThere(file);
  if (existing && !existing.isFile() && !existing.isDirectory()) {
    throw new UsageError(`will not write ${shownArg(file)}: it is not a regular file`);
  }
  const progress = loadProgress(io.err);
  try {
    writeFileSync(file, `${JSON.stringify(progress, null, 2)}\n`);
  } catch (error) {
    throw new UsageError(`cannot write ${shownArg(file)}: ${reason(error)}`);
  }
  // Counted are the problems of this ladder; records of folders gone since travel along unnamed.
  const known = new Set(loadProblems().map((p) => p.dir));
  const dirs = Object.keys(progress.problems);
  const count = dirs.filter((dir) => known.has(dir)).length;
  const others = dirs.length - count;
  const named = escapeControl(file);
  io.out(`Exported the progress on ${count} problem${count === 1 ? '' : 's'} to ${named}`);
  if (others > 0) {
    const what = others === 1 ? 'a problem' : `${others} problems`;
    io.out(io.style.dim(wrap(`It also keeps what was recorded of ${what} not in this ladder.`)));
  }
  io.out(io.style.dim(`Bring it in elsewhere with: npm run progress -- --import ${named}`));
  return 0;
}

/** Reads and checks an exported record; anything wrong with it is one line and exit code 2. */
function readImport(file: string): Progress {
  const named = shownArg(file);
  let read: FileRead;
  try {
    read = readRegularFile(file, MAX_PROGRESS_BYTES);
  } catch (error) {
    throw new UsageError(`cannot read ${named}: ${reason(error)}`);
  }
  if (read.kind === 'missing') throw new UsageError(`cannot read ${named}: no such file or folder`);
  if (read.kind === 'not-regular') {
    // A pipe or a device is never read: it may never end.
    const what = read.what === 'a folder' ? 'a folder' : `${read.what}, not a regular file`;
    throw new UsageError(`cannot read ${named}: it is ${what}`);
  }
  if (read.kind === 'too-big') {
    throw new UsageError(
      `${named} is ${sizeText(read.bytes)}: a progress record is at most ${sizeText(MAX_PROGRESS_BYTES)}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.text);
  } catch (error) {
    throw new UsageError(`${named} is not valid JSON (${escapeControl(reason(error))})`);
  }
  const wrong = checkRecord(parsed);
  if (wrong !== undefined) {
    throw new UsageError(
      `${named} is not a progress record as --export writes it: ${wrong}; nothing was changed`,
    );
  }
  return parsed as Progress;
}

function importFrom(file: string, io: IO): number {
  const theirs = readImport(file);
  const dirs = Object.keys(theirs.problems);
  const known = updateProgress(io.err, (mine) => {
    const known = dirs.filter((dir) => mine.problems[dir] !== undefined).length;
    Object.assign(mine, mergeProgress(mine, theirs));
    return known;
  });
  io.out(
    `Imported ${escapeControl(file)}: ${dirs.length - known} problem${dirs.length - known === 1 ? '' : 's'} ` +
      `new, ${known} merged (earliest dates, best verdicts and scores kept).`,
  );
  return 0;
}

/** A backup's name sorts by time and has no colons (which some file systems refuse). */
function backupName(now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
  let name = path.join(BACKUP_DIR, `progress-${stamp}.json`);
  for (let n = 2; existsSync(name); n++)
    name = path.join(BACKUP_DIR, `progress-${stamp}-${n}.json`);
  return name;
}

/** Whether there is a progress file to clear; one that is not a regular file is left alone. */
function recorded(): boolean {
  const stats = statIfThere(PROGRESS_FILE);
  if (stats === undefined || stats.isFile()) return stats !== undefined;
  // Reading it tells what it is, and never hangs.
  const read = readRegularFile(PROGRESS_FILE, 0);
  const what = read.kind === 'not-regular' ? read.what : 'not a regular file';
  throw new StateError(
    `${shown(PROGRESS_FILE)} is ${what}, not a regular file: it is left as it is; ` +
      'move it away yourself to start afresh.',
  );
}

async function reset(yes: boolean, io: IO & Asker): Promise<number> {
  if (!recorded()) {
    io.out('No progress recorded: nothing to reset.');
    return 0;
  }
  const question = 'Clear all your progress? (a copy is kept first)';
  if (!(await agreed(question, yes, io, 'clear your progress'))) {
    io.out('Nothing changed.');
    return 1;
  }
  ensureDir(BACKUP_DIR, 'a backup of your progress');
  // Under the lock: a grade finishing meanwhile must not write its update into the cleared record
  // after the copy was taken, nor have it removed unseen.
  const backup = withProgressLock(() => {
    if (!recorded()) return undefined;
    const backup = backupName(new Date());
    try {
      copyFileSync(PROGRESS_FILE, backup, constants.COPYFILE_EXCL);
    } catch (error) {
      throw new StateError(
        `cannot back up ${shown(PROGRESS_FILE)}: ${reason(error)}; nothing changed`,
      );
    }
    rmSync(PROGRESS_FILE);
    return backup;
  });
  if (backup === undefined) {
    io.out('No progress recorded: nothing to reset.');
    return 0;
  }
  io.out(`Progress cleared. A copy of it is kept in\n  ${shown(backup)}`);
  io.out(io.style.dim(`To bring it back:\n  npm run progress -- --import ${shown(backup)}`));
  return 0;
}

export async function progress(argv: string[], io: IO & Asker): Promise<number> {
  const { values } = parse(argv, {
    command: 'progress',
    maxArgs: 0,
    summary: 'Where you stand on each problem; or your record exported, imported or cleared.',
    options: {
      export: { type: 'string', value: 'FILE', help: 'write your progress to FILE' },
      import: {
        type: 'string',
        value: 'FILE',
        help: 'merge FILE into your progress (the best of both is kept)',
      },
      reset: { type: 'boolean', default: false, help: 'clear your progress, keeping a copy first' },
      yes: {
        type: 'boolean',
        short: 'y',
        default: false,
        help: 'with --reset: do not ask (needed without a terminal)',
      },
    },
    example: 'npm run progress -- --export progress.json',
  });
  const actions = [values.export, values.import, values.reset || undefined];
  if (actions.filter((a) => a !== undefined).length > 1) {
    throw new UsageError('use one of --export, --import and --reset at a time');
  }
  if (values.yes && !values.reset) throw new UsageError('--yes goes with --reset');
  if (values.export !== undefined) return exportTo(values.export, io);
  if (values.import !== undefined) return importFrom(values.import, io);
  if (values.reset) return reset(values.yes, io);
  return show(io);
}
