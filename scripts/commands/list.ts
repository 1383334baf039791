// `npm run list`: the problems in ladder order, with difficulty and where the learner stands.
import { loadProblems } from '../../harness/judge/problems.ts';
import { loadProgress } from '../../harness/learner/progress.ts';
import { VERDICT_LABEL } from '../../harness/terminal/report.ts';
import { WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { parse, type IO } from '../lib/cli.ts';
import { hintCount } from './hint.ts';

/** Column widths, each with the space after it: number, problem, title and level. */
const NUMBER = 3;
const ID = 13;
const TITLE = 32;
const LEVEL = 7;
/** Where the status column starts. */
const STATUS_COLUMN = NUMBER + ID + TITLE + LEVEL;

export async function list(argv: string[], io: IO): Promise<number> {
  parse(argv, {});
  const progress = loadProgress(io.err);
  io.out(
    io.style.bold(
      `${'#'.padEnd(NUMBER)}${'problem'.padEnd(ID)}${'title'.padEnd(TITLE)}${'level'.padEnd(LEVEL)}status`,
    ),
  );
  loadProblems().forEach((problem, i) => {
    const mine = progress.problems[problem.dir];
    const hints = mine?.hintsUsed ? ` · ${hintCount(mine.hintsUsed)}` : '';
    // A hint asked for before any judging makes an entry, but the problem is still not started.
    const status =
      !mine || (mine.bestVerdict === 'not-started' && mine.attempts === 0)
        ? io.style.dim(`not started${hints}`)
        : mine.bestVerdict === 'accepted'
          ? io.style.green(
              `✓ solved${hints} · follow-ups ${mine.followUpsPassed}/${mine.followUpsTotal}`,
            )
          : io.style.yellow(
              `${VERDICT_LABEL[mine.bestVerdict]} · ${mine.attempts} attempts${hints}`,
            );
    const number = String(i + 1).padEnd(NUMBER);
    const rest = `${problem.title.padEnd(TITLE)}${problem.difficulty.padEnd(LEVEL)}${status}`;
    // The id is what the learner types, so it is never cut: one too long for its column (the
    // design track's) has the line to itself, and the row goes on below, under the title column.
    const row =
      problem.id.length < ID
        ? `${number}${problem.id.padEnd(ID)}${rest}`
        : `${number}${problem.id}\n${' '.repeat(NUMBER + ID)}${rest}`;
    // A long status goes on under itself rather than past the 80th column.
    io.out(wrap(row, WIDTH, ' '.repeat(STATUS_COLUMN)));
  });
  io.out(io.style.dim('\nStart with: npm run kata (opens the first problem not yet solved)'));
  return 0;
}
