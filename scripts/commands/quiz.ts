// `npm run quiz [problem] [--yes]`: multiple-choice questions on the reasoning behind a problem,
// answered one line at a time (a letter or a number), each followed by why the right choice is right.
// The choices come in a new order on every run, so that an answer is not remembered by its letter.
// The score is recorded in progress only when every question was answered. Answers come from standard
// input, so the quiz can be driven by a pipe as well as typed in a terminal. Without a problem named,
// a quiz is picked; if its problem is not solved yet it asks first (or wants --yes), as `solution`
// does, since the questions talk about how the solution works.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadQuiz, quizFile, type QuizQuestion } from '../../harness/learner/learning.ts';
import { loadProblems, type Problem } from '../../harness/judge/problems.ts';
import {
  entryFor,
  isSolved,
  loadProgress,
  updateProgress,
  type Progress,
} from '../../harness/learner/progress.ts';
import { renderInline } from '../../harness/terminal/markdown.ts';
import { WIDTH } from '../../harness/terminal/wrap.ts';
import { parse, resolveProblem, shownArg, UsageError, type IO } from '../lib/cli.ts';
import { agreed, type Asker } from '../lib/confirm.ts';
import { readLines, toNextLine, type LineInput, type NextLine } from '../lib/lines.ts';

const letter = (index: number): string => String.fromCharCode(97 + index);

/** A source of numbers in [0, 1), as Math.random: tests pass their own to fix the order. */
export type Random = () => number;

/**
 * The order to show `count` choices in: shown position i holds the file's choice order[i]. A
 * Fisher–Yates shuffle, so every order is equally likely with a fair source.
 */
export function shuffledOrder(count: number, random: Random = Math.random): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i--) {
    // Clamped, so that a source returning 1 (or more) cannot pick past the end.
    const j = Math.min(i, Math.floor(random() * (i + 1)));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}

/** The choice an answer names (0-based): "b", "B", "b)" or "2"; undefined when it names none. */
export function parseAnswer(text: string, choices: number): number | undefined {
  const answer = text.trim().toLowerCase().replace(/\)$/, '');
  const index = /^[a-z]$/.test(answer)
    ? answer.charCodeAt(0) - 97
    : /^\d+$/.test(answer)
      ? Number(answer) - 1
      : -1;
  return index >= 0 && index < choices ? index : undefined;
}

/**
 * The quiz to take when none is named: the first in the ladder never completed, or else the one with
 * the lowest best score (as a share of its questions), the earlier one on a tie.
 */
export function pickQuiz(problems: Problem[], progress: Progress): Problem | undefined {
  const withQuiz = problems.filter((p) => existsSync(quizFile(p)));
  const untaken = withQuiz.find((p) => !progress.problems[p.dir]?.quiz);
  if (untaken) return untaken;
  const share = (p: Problem): number => {
    const quiz = progress.problems[p.dir]?.quiz;
    return quiz && quiz.total > 0 ? quiz.best / quiz.total : 0;
  };
  return withQuiz.reduce<Problem | undefined>(
    (lowest, p) => (lowest === undefined || share(p) < share(lowest) ? p : lowest),
    undefined,
  );
}

function readQuiz(problem: Problem): QuizQuestion[] {
  if (!existsSync(quizFile(problem))) {
    const file = path.relative(process.cwd(), quizFile(problem));
    throw new UsageError(`${problem.id} has no quiz yet (no ${file}).`);
  }
  try {
    return loadQuiz(problem);
  } catch (error) {
    throw new UsageError(`cannot use the quiz for ${problem.id}: ${(error as Error).message}`);
  }
}

/** A question as shown: its choices in `order`, the shown letter i being the file's choice order[i]. */
function showQuestion(
  question: QuizQuestion,
  order: number[],
  n: number,
  total: number,
  io: IO,
): void {
  io.out(`\n${io.style.bold(`Question ${n} of ${total}`)}`);
  io.out(renderInline(question.question, io.style));
  order.forEach((choice, i) => {
    // The choice's text continues under itself, clear of its letter.
    io.out(renderInline(`  ${letter(i)}) ${question.choices[choice]}`, io.style, WIDTH, '     '));
  });
}

/** Reads until a line names a choice; undefined when the input ends first. */
async function readAnswer(next: NextLine, choices: number, io: IO): Promise<number | undefined> {
  const range = `a–${letter(choices - 1)} or 1–${choices}`;
  io.out(io.style.dim(`Your answer (${range}):`));
  for (;;) {
    const line = await next();
    if (line === null) return undefined;
    const answer = parseAnswer(line, choices);
    if (answer !== undefined) return answer;
    io.out(`"${shownArg(line.trim())}" is not one of the choices: answer with ${range}.`);
  }
}

/**
 * Asks every question, its choices shuffled; the number answered right, or undefined if the input
 * ended too soon. Each question's order is drawn before it is shown, in the order of the questions.
 */
async function ask(
  questions: QuizQuestion[],
  next: NextLine,
  io: IO,
  random: Random,
): Promise<number | undefined> {
  let right = 0;
  for (const [i, question] of questions.entries()) {
    const order = shuffledOrder(question.choices.length, random);
    showQuestion(question, order, i + 1, questions.length, io);
    const answer = await readAnswer(next, question.choices.length, io);
    if (answer === undefined) {
      io.err(
        `The input ended at question ${i + 1} of ${questions.length} (${i} answered): ` +
          'no score recorded.',
      );
      return undefined;
    }
    // The letter names a shown position; the file's `answer` is in the file's order.
    if (order[answer] === question.answer) {
      right++;
      io.out(io.style.green('✓ Right.'));
    } else {
      io.out(io.style.red(`✗ Wrong: the answer is ${letter(order.indexOf(question.answer))}).`));
    }
    io.out(renderInline(question.why, io.style));
  }
  return right;
}

function record(problem: Problem, score: number, total: number, io: IO): number {
  // Read progress afresh, under the lock: the learner may have judged a solution while answering.
  return updateProgress(io.err, (progress) => {
    const entry = entryFor(progress, problem.dir);
    // No more than this quiz's questions: an older, longer quiz's best does not carry over whole.
    const best = Math.min(total, Math.max(entry.quiz?.best ?? 0, score));
    entry.quiz = { best, last: score, total, at: new Date().toISOString() };
    return best;
  });
}

/**
 * `input` replaces standard input (tests pass lists of lines); `random` orders the choices, and
 * answers to the confirmation come from `io.ask` when given.
 */
export async function quiz(
  argv: string[],
  io: IO & Asker,
  input?: LineInput,
  random: Random = Math.random,
): Promise<number> {
  const { values, positionals } = parse(argv, {
    command: 'quiz',
    args: '[problem]',
    maxArgs: 1,
    summary: 'Multiple-choice questions on why a solution works, answered one per line.',
    options: {
      yes: {
        type: 'boolean',
        short: 'y',
        default: false,
        help: 'take a quiz picked for you without asking, even if not solved yet',
      },
    },
    notes: ['Without a problem, the next quiz to take.'],
    example: 'npm run quiz 933',
  });
  if (positionals.length > 1) {
    throw new UsageError('name one problem at most: npm run quiz [problem]');
  }
  const problems = loadProblems();
  const progress = loadProgress(io.err);
  const problem = positionals[0]
    ? resolveProblem(problems, positionals[0])
    : pickQuiz(problems, progress);
  if (!problem) throw new UsageError('no problem has a quiz yet.');
  // Read before anything is asked: a missing or malformed quiz fails first.
  const questions = readQuiz(problem);
  const solved = isSolved(progress, problem.dir);
  // A problem named was chosen knowingly; one picked here may be a spoiler the learner did not expect.
  if (!positionals[0] && !solved) {
    const question =
      `The next quiz is on ${problem.id} · ${problem.title}, not solved yet: its questions talk ` +
      'about how the solution works. Take it anyway?';
    const action = `take the quiz on ${problem.id} before solving it`;
    if (!(await agreed(question, values.yes, io, action))) {
      io.out('No quiz taken. To take another, name it: npm run quiz <problem>');
      return 1;
    }
  }

  io.out(io.style.bold(`Quiz · ${problem.id} · ${problem.title} · ${questions.length} questions`));
  if (!solved) {
    io.out(io.style.dim('Not solved yet: the questions talk about how the solution works.'));
  }
  // Standard input is read only when no other input was given, and let go of afterwards.
  const reader = input === undefined ? readLines() : undefined;
  const next = reader ? reader.next : toNextLine(input as LineInput);
  try {
    const score = await ask(questions, next, io, random);
    if (score === undefined) return 1;
    const best = record(problem, score, questions.length, io);
    io.out(
      `\n${io.style.bold(`Score: ${score}/${questions.length}`)} · best so far ${best}/${questions.length}`,
    );
    return 0;
  } finally {
    reader?.close();
  }
}
