// `npm run list`: the problems in ladder order, with difficulty and where the learner stands.
import { loadProblems } from '../../harness/judge/problems.ts';
import { loadProgress } from '../../harness/learner/progress.ts';
import { VERDICT_LABEL } from '../../harness/terminal/report.ts';
import { WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { parse, type IO } from '../lib/cli.ts';
import { hintCount } from './hint.ts';

/** Where the status column starts: the columns before it are as wide as the longest entries. */
const STATUS_COLUMN = 3 + 13 + 32 + 7;

export async function list(argv: string[], io: IO): Promise<number> {
  parse(argv, {});
  const progress = loadProgress(io.err);
  io.out(
    io.style.bold(
      `${'#'.padEnd(3)}${'problem'.padEnd(13)}${'title'.padEnd(32)}${'level'.padEnd(7)}status`,
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
    const row = `${String(i + 1).padEnd(3)}${problem.id.padEnd(13)}${problem.title.padEnd(32)}${problem.difficulty.padEnd(7)}${status}`;
    // A long status goes on under itself rather than past the 80th column.
    io.out(wrap(row, WIDTH, ' '.repeat(STATUS_COLUMN)));
  });
  io.out(io.style.dim('\nStart with: npm run kata (opens the first problem not yet solved)'));
  return 0;
}
