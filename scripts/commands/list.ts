// `npm run list`: the problems in ladder order, with difficulty and where the learner stands.
import { loadProblems } from '../../harness/problems.ts';
import { loadProgress } from '../../harness/progress.ts';
import { VERDICT_LABEL } from '../../harness/report.ts';
import { parse, type IO } from '../lib/cli.ts';

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
    const status = !mine
      ? io.style.dim('not started')
      : mine.bestVerdict === 'accepted'
        ? io.style.green(`✓ solved · follow-ups ${mine.followUpsPassed}/${mine.followUpsTotal}`)
        : io.style.yellow(`${VERDICT_LABEL[mine.bestVerdict]} · ${mine.attempts} attempts`);
    io.out(
      `${String(i + 1).padEnd(3)}${problem.id.padEnd(13)}${problem.title.padEnd(32)}${problem.difficulty.padEnd(7)}${status}`,
    );
  });
  io.out(io.style.dim('\nStart with: npm run kata (opens the first problem not yet solved)'));
  return 0;
}
