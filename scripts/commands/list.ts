// `npm run list`: the problems in ladder order, with difficulty and where the learner stands. A
// problem that needs more than Node (a Redis server) is marked, and explained once under the table,
// with what is missing when this machine does not have it.
import { loadProblems } from '../../harness/judge/problems.ts';
import { redactUrl, redisAvailability } from '../../harness/redis/availability.ts';
import { loadProgress, type ProblemProgress } from '../../harness/learner/progress.ts';
import { escapeControl } from '../../harness/escape.ts';
import { VERDICT_LABEL } from '../../harness/terminal/report.ts';
import { WIDTH, wrap, wrapKeepingCode } from '../../harness/terminal/wrap.ts';
import { parse, type IO } from '../lib/cli.ts';
import { hintCount } from './hint.ts';
import { plural } from '../../harness/terminal/plural.ts';

/** Column widths, each with the space after it: number, problem, title and level. */
const NUMBER = 3;
const ID = 13;
const TITLE = 32;
const LEVEL = 7;
/** Where the status column starts. */
const STATUS_COLUMN = NUMBER + ID + TITLE + LEVEL;

/** Follows the title of a problem that needs Redis; explained under the table. */
const NEEDS_REDIS_MARK = '†';

/** Joins the words of one piece of a status, so that a line breaks between pieces if it can. */
const KEEP = '\u00a0';
/** Between pieces: a line may break after the dot, never before it. */
const SEP = `${KEEP}· `;

/** A piece of a status ("now Wrong Answer", "2 hints"), kept on one line when it fits in one. */
function piece(text: string): string {
  return text.length <= WIDTH - STATUS_COLUMN ? text.replaceAll(' ', KEEP) : text;
}

/** Where the learner stands on a problem, for the status column (KEEP between words). */
function statusOf(mine: ProblemProgress | undefined, io: IO): string {
  const hints = mine?.hintsUsed ? `${SEP}${piece(hintCount(mine.hintsUsed))}` : '';
  // A hint asked for before any judging makes an entry, but the problem is still not started.
  if (!mine || (mine.bestVerdict === 'not-started' && mine.attempts === 0)) {
    return io.style.dim(`${piece('not started')}${hints}`);
  }
  // Where the learner stands now, when the latest verdict is not the best (solved once, broken
  // since). Records written before the latest verdict was kept say nothing of it.
  const last = mine.lastVerdict;
  const now =
    last !== undefined && last !== mine.bestVerdict
      ? `${SEP}${piece(`now ${VERDICT_LABEL[last]}`)}`
      : '';
  if (mine.bestVerdict === 'accepted') {
    const followUps = piece(`follow-ups ${mine.followUpsPassed}/${mine.followUpsTotal}`);
    return (
      io.style.green(piece('✓ solved')) +
      (now ? io.style.yellow(now) : '') +
      io.style.green(`${hints}${SEP}${followUps}`)
    );
  }
  const label = VERDICT_LABEL[mine.bestVerdict];
  const best = piece(now ? `best ${label}` : label);
  return io.style.yellow(`${best}${now}${SEP}${piece(plural(mine.attempts, 'attempt'))}${hints}`);
}

export async function list(argv: string[], io: IO): Promise<number> {
  parse(argv, {
    command: 'list',
    maxArgs: 0,
    summary: 'The ladder of problems, with difficulty and where you stand on each.',
    options: {},
    example: 'npm run list',
  });
  const progress = loadProgress(io.err);
  io.out(
    io.style.bold(
      `${'#'.padEnd(NUMBER)}${'problem'.padEnd(ID)}${'title'.padEnd(TITLE)}${'level'.padEnd(LEVEL)}status`,
    ),
  );
  const problems = loadProblems();
  problems.forEach((problem, i) => {
    const status = statusOf(progress.problems[problem.dir], io);
    const number = String(i + 1).padEnd(NUMBER);
    const redis = problem.requires?.includes('redis') ?? false;
    const title = redis ? `${problem.title} ${NEEDS_REDIS_MARK}` : problem.title;
    const rest = `${title.padEnd(TITLE)}${problem.difficulty.padEnd(LEVEL)}${status}`;
    // The id is what the learner types, so it is never cut: one too long for its column (the
    // design track's) has the line to itself, and the row goes on below, under the title column.
    const row =
      problem.id.length < ID
        ? `${number}${problem.id.padEnd(ID)}${rest}`
        : `${number}${problem.id}\n${' '.repeat(NUMBER + ID)}${rest}`;
    // A long status goes on under itself rather than past the 80th column.
    io.out(wrap(row, WIDTH, ' '.repeat(STATUS_COLUMN)).replaceAll(KEEP, ' '));
  });
  // Once, however many problems need it: what the mark means, and what is missing if anything is.
  if (problems.some((problem) => problem.requires?.includes('redis'))) {
    const availability = redisAvailability();
    const legend = !availability.available
      ? `${NEEDS_REDIS_MARK} needs Redis, and this machine has none: ${availability.reason}; ${availability.howTo}.`
      : availability.mode === 'url'
        ? `${NEEDS_REDIS_MARK} needs Redis: judged on REDIS_URL=${redactUrl(availability.url)}, under keys and a user of its own.`
        : `${NEEDS_REDIS_MARK} needs Redis: the judge starts its own ${availability.serverPath}.`;
    const paint = availability.available ? io.style.dim : io.style.yellow;
    io.out(
      wrapKeepingCode(escapeControl(legend), WIDTH, '  ')
        .split('\n')
        .map((line) => paint(line))
        .join('\n'),
    );
  }
  io.out(io.style.dim('\nStart with: npm run kata (opens the first problem not yet solved)'));
  return 0;
}
