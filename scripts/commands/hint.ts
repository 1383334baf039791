// `npm run hint <problem>`: the next hint, from a nudge to nearly the idea, with the ones already
// seen above it (dimmed) so that the learner reads them as one train of thought. Each new hint is
// counted in progress, so that `list` and `grade` can tell a solve with hints from one without.
// Once the problem is accepted hints cost nothing: all of them are shown and none is counted.
import { loadHints } from '../../harness/learner/learning.ts';
import { loadProblems, type Problem } from '../../harness/judge/problems.ts';
import { entryFor, isSolved, updateProgress } from '../../harness/learner/progress.ts';
import { WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { parse, resolveProblem, UsageError, type IO } from '../lib/cli.ts';
import { plural } from '../../harness/terminal/plural.ts';

/**
 * Reads a problem's learning material (hints, explanation, pristine stub). Missing or malformed
 * material is the repository's fault, not the learner's, but it still gets one clear line.
 */
export function readMaterial<T>(problem: Problem, what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    throw new UsageError(`cannot read the ${what} of ${problem.id}: ${reason}`);
  }
}

/** "1 hint", "3 hints". */
export const hintCount = (n: number): string => plural(n, 'hint');

/** Seen before (dimmed), just revealed (its label stands out), or one of all after solving. */
export type HintLook = 'seen' | 'new' | 'plain';

export function hintLines(
  hints: string[],
  index: number,
  look: HintLook,
  style: IO['style'],
): string[] {
  const label = `Hint ${index + 1}/${hints.length}`;
  const lines = wrap(`${label}  ${hints[index]}`, WIDTH, ' '.repeat(label.length + 2)).split('\n');
  if (look === 'seen') return lines.map((l) => style.dim(l));
  const [first = '', ...rest] = lines;
  const paint = look === 'new' ? (s: string) => style.yellow(style.bold(s)) : style.bold;
  return [paint(label) + first.slice(label.length), ...rest];
}

/**
 * Shows the hints seen so far and the next one, and records it. Shared with `kata`, whose watch
 * mode does the same when `h` is pressed (`again` says how to ask for the next one).
 */
export function showNextHint(problem: Problem, io: IO, again = `npm run hint ${problem.id}`): void {
  const hints = readMaterial(problem, 'hints', () => loadHints(problem));
  // Read and counted in one locked update: two hints asked for at once are both counted.
  const { solved, seen, shown } = updateProgress(io.err, (progress) => {
    const solved = isSolved(progress, problem.dir);
    const entry = solved ? undefined : entryFor(progress, problem.dir);
    const seen = Math.min(entry?.hintsUsed ?? 0, hints.length);
    const shown = solved ? hints.length : Math.min(seen + 1, hints.length);
    if (entry && shown > seen) entry.hintsUsed = shown;
    return { solved, seen, shown };
  });
  const out: string[] = [io.style.bold(`${problem.id} · ${problem.title} — hints`), ''];
  for (let i = 0; i < shown; i++) {
    const look: HintLook = solved ? 'plain' : i < seen ? 'seen' : 'new';
    out.push(...hintLines(hints, i, look, io.style), '');
  }
  const left = hints.length - shown;
  if (solved) {
    out.push(io.style.dim('You have solved this one: every hint is shown, and none is counted.'));
  } else if (left > 0) {
    const oneLine = `${left} more to come: ${again} again for the next one.`;
    // A long id (the design track's) makes that too wide: what to run goes on a line of its own.
    const more =
      oneLine.length <= WIDTH
        ? oneLine
        : `${left} more to come:\n  ${again} again for the next one.`;
    out.push(...wrap(more, WIDTH, '  ').split('\n').map(io.style.dim));
  } else {
    out.push(
      wrap(
        `${shown > seen ? 'That was the last hint.' : `You have seen all ${hints.length} hints.`} ` +
          `The reference solution and why it works: npm run solution ${problem.id}`,
        WIDTH,
      ),
    );
  }
  io.out(out.join('\n'));
}

export async function hint(argv: string[], io: IO): Promise<number> {
  const { positionals } = parse(argv, {
    command: 'hint',
    args: '<problem>',
    maxArgs: 1,
    summary: 'The next hint for a problem, under the ones you have seen. Each is counted.',
    options: {},
    notes: ['Once the problem is accepted, every hint is shown and none is counted.'],
    example: 'npm run hint 933',
  });
  if (positionals.length !== 1) {
    throw new UsageError('name one problem: npm run hint <problem> (for example npm run hint 933)');
  }
  showNextHint(resolveProblem(loadProblems(), positionals[0] as string), io);
  return 0;
}
