// `npm run progress [--export FILE | --import FILE | --reset [--yes]]`: where the learner stands, in
// one summary and one line per problem; or the record itself carried to and from another machine, or
// cleared (after a copy is kept under the state folder's backups/).
import {
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { PROBLEMS_DIR, STATE_DIR } from '../../harness/paths.ts';
import { loadProblems, type Problem } from '../../harness/judge/problems.ts';
import {
  isProgress,
  loadProgress,
  mergeProgress,
  PROGRESS_FILE,
  saveProgress,
  type ProblemProgress,
  type Progress,
} from '../../harness/learner/progress.ts';
import { VERDICT_LABEL } from '../../harness/terminal/report.ts';
import { wrap } from '../../harness/terminal/wrap.ts';
import { agreed, type Asker } from '../lib/confirm.ts';
import { parse, UsageError, type IO } from '../lib/cli.ts';

export const BACKUP_DIR = path.join(STATE_DIR, 'backups');

const fit = (text: string, width: number): string =>
  text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);

/** Columns: problem, title and verdict, then four counts right-aligned; 79 columns in all. */
const ID = 12;
const TITLE = 20;
const VERDICT = 21;
const COUNT = 5;

const counts = (cells: string[]): string => cells.map((c) => c.padStart(COUNT)).join(' ');
const heading = (): string =>
  `${fit('problem', ID)} ${fit('title', TITLE)} ${fit('verdict', VERDICT)} ` +
  counts(['tries', 'f-ups', 'hints', 'quiz']);

/** "2026-01-05 14:03 UTC" from an ISO time; anything else is shown as it is. */
export function when(iso: string): string {
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)[\d:.]*Z$/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
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
  const head = `${fit(problem.id, ID)} ${fit(problem.title, TITLE)} `;
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
  if (Object.keys(progress.problems).length === 0) {
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
    io.out(io.style.dim(`\n${wrap(`Also recorded, not in this ladder: ${others.join(', ')}`)}`));
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
function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (error as Error).message.split('\n')[0] as string;
}

function exportTo(file: string, io: IO): number {
  // Learner files are sacred: nothing but `reset` writes into problems/.
  if (inside(PROBLEMS_DIR, path.resolve(file))) {
    throw new UsageError(
      `will not write into ${path.relative(process.cwd(), PROBLEMS_DIR)}/: choose another file`,
    );
  }
  const progress = loadProgress(io.err);
  try {
    writeFileSync(file, `${JSON.stringify(progress, null, 2)}\n`);
  } catch (error) {
    throw new UsageError(`cannot write ${file}: ${reason(error)}`);
  }
  const count = Object.keys(progress.problems).length;
  io.out(`Exported the progress on ${count} problem${count === 1 ? '' : 's'} to ${file}`);
  io.out(io.style.dim(`Bring it in elsewhere with: npm run progress -- --import ${file}`));
  return 0;
}

/**
 * The fields isProgress leaves unchecked but merging and the summary rely on: without this, an entry
 * missing its follow-up counts would be merged into NaN.
 */
function isComplete(entry: ProblemProgress): boolean {
  const isCount = (n: unknown): boolean => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  const quiz = entry.quiz;
  return (
    isCount(entry.followUpsPassed) &&
    isCount(entry.followUpsTotal) &&
    (entry.firstAccepted === null || typeof entry.firstAccepted === 'string') &&
    (entry.hintsUsed === undefined || isCount(entry.hintsUsed)) &&
    (entry.solutionViewed === undefined ||
      entry.solutionViewed === null ||
      typeof entry.solutionViewed === 'string') &&
    (quiz === undefined ||
      (typeof quiz === 'object' &&
        quiz !== null &&
        isCount(quiz.best) &&
        isCount(quiz.last) &&
        isCount(quiz.total) &&
        typeof quiz.at === 'string'))
  );
}

/** Reads and checks an exported record; anything wrong with it is one line and exit code 2. */
function readImport(file: string): Progress {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${reason(error)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON (${reason(error)})`);
  }
  if (!isProgress(parsed) || !Object.values(parsed.problems).every(isComplete)) {
    throw new UsageError(
      `${file} is not a progress record (expected {"version": 1, "problems": {…}} as --export writes)`,
    );
  }
  return parsed;
}

function importFrom(file: string, io: IO): number {
  const theirs = readImport(file);
  const mine = loadProgress(io.err);
  const dirs = Object.keys(theirs.problems);
  const known = dirs.filter((dir) => mine.problems[dir] !== undefined).length;
  saveProgress(mergeProgress(mine, theirs));
  io.out(
    `Imported ${file}: ${dirs.length - known} problem${dirs.length - known === 1 ? '' : 's'} ` +
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

async function reset(yes: boolean, io: IO & Asker): Promise<number> {
  if (!existsSync(PROGRESS_FILE)) {
    io.out('No progress recorded: nothing to reset.');
    return 0;
  }
  const question = 'Clear all your progress? (a copy is kept first)';
  if (!(await agreed(question, yes, io, 'clear your progress'))) {
    io.out('Nothing changed.');
    return 1;
  }
  mkdirSync(BACKUP_DIR, { recursive: true });
  const backup = backupName(new Date());
  copyFileSync(PROGRESS_FILE, backup, constants.COPYFILE_EXCL);
  rmSync(PROGRESS_FILE);
  io.out(`Progress cleared. A copy of it is kept in\n  ${shown(backup)}`);
  io.out(io.style.dim(`To bring it back:\n  npm run progress -- --import ${shown(backup)}`));
  return 0;
}

export async function progress(argv: string[], io: IO & Asker): Promise<number> {
  const { values, positionals } = parse(argv, {
    export: { type: 'string' },
    import: { type: 'string' },
    reset: { type: 'boolean', default: false },
    yes: { type: 'boolean', short: 'y', default: false },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
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
