// `npm run solution <problem> [--yes]`: the reference solution, as source, and the explanation of
// its idea, cost and traps. Before the learner's own solution is accepted this is a spoiler, so it
// asks first (or wants --yes) and records that they looked; afterwards it is there to compare.
import { loadExplanation, readMaterialFile } from '../../harness/learner/learning.ts';
import { renderMarkdown } from '../../harness/terminal/markdown.ts';
import { loadProblems, type Problem } from '../../harness/judge/problems.ts';
import {
  entryFor,
  isSolved,
  loadProgress,
  updateProgress,
} from '../../harness/learner/progress.ts';
import type { Style } from '../../harness/terminal/style.ts';
import { WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { parse, resolveProblem, UsageError, type IO } from '../lib/cli.ts';
import { agreed, type Asker } from '../lib/confirm.ts';
import { readMaterial } from './hint.ts';
import { shownPath } from './reset.ts';

/**
 * The source exactly as written, so that it can be copied, with comments dimmed so the code stands
 * out. Lines are never wrapped: the comments of the references are written to fit 80 columns, and
 * a code line wider than the screen runs long, since a broken line of code reads worse than a long
 * one.
 */
export function paintSource(source: string, style: Style): string[] {
  let inBlock = false;
  return source
    .trimEnd()
    .split('\n')
    .map((line) => {
      const trimmed = line.trim();
      const comment = inBlock || trimmed.startsWith('//') || trimmed.startsWith('/*');
      if (trimmed.startsWith('/*')) inBlock = true;
      if (inBlock && trimmed.includes('*/')) inBlock = false;
      return comment ? style.dim(line) : line;
    });
}

/** The page to show, read before anything is asked or recorded: missing material fails first. */
export function page(problem: Problem, io: Pick<IO, 'style'>): string {
  const rule = io.style.dim('─'.repeat(WIDTH));
  const source = readMaterial(problem, 'reference', () => readMaterialFile(problem.referenceFile));
  const explanation = readMaterial(problem, 'explanation', () => loadExplanation(problem));
  return [
    io.style.bold(wrap(`${problem.id} · ${problem.title} — the reference solution`, WIDTH, '  ')),
    io.style.dim(shownPath(problem.referenceFile)),
    rule,
    ...paintSource(source, io.style),
    rule,
    '',
    renderMarkdown(explanation, io.style),
  ].join('\n');
}

export async function solution(argv: string[], io: IO & Asker): Promise<number> {
  const { values, positionals } = parse(argv, {
    command: 'solution',
    args: '<problem>',
    maxArgs: 1,
    summary: 'The reference solution of a problem, and why it works.',
    options: {
      yes: {
        type: 'boolean',
        short: 'y',
        default: false,
        help: 'show it without asking, even before you have solved the problem',
      },
    },
    notes: ['Before your own solution is accepted it asks first, and notes that you looked.'],
    example: 'npm run solution 933',
  });
  if (positionals.length !== 1) {
    throw new UsageError('name one problem: npm run solution <problem> (for example 933)');
  }
  const problem = resolveProblem(loadProblems(), positionals[0] as string);
  const shown = page(problem, io);
  const accepted = isSolved(loadProgress(io.err), problem.dir);
  if (!accepted) {
    const question =
      `${problem.id} is not accepted yet: seeing the reference now gives the idea away ` +
      `(npm run hint ${problem.id} only nudges). Show it anyway?`;
    if (!(await agreed(question, values.yes, io, 'see the reference before solving'))) {
      io.out(`Not shown. For a nudge instead: npm run hint ${problem.id}`);
      return 1;
    }
  }
  // Read again after the question, under the lock: another command may save progress meanwhile.
  updateProgress(io.err, (progress) => {
    const entry = entryFor(progress, problem.dir);
    if (!entry.solutionViewed) {
      entry.solutionViewed = new Date().toISOString();
      entry.solutionViewedBeforeAccepted = !accepted;
    } else if (!accepted) {
      entry.solutionViewedBeforeAccepted = true;
    }
  });
  io.out(shown);
  return 0;
}
