// `npm run quiz [problem]`: multiple-choice questions on the reasoning behind a problem, answered one
// line at a time (a letter or a number), each followed by why the right choice is right. The score is
// recorded in progress only when every question was answered. Answers come from standard input, so
// the quiz can be driven by a pipe as well as typed in a terminal.
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
import { WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { parse, resolveProblem, shownArg, UsageError, type IO } from '../lib/cli.ts';
import { readLines, toNextLine, type LineInput, type NextLine } from '../lib/lines.ts';

const letter = (index: number): string => String.fromCharCode(97 + index);

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

function showQuestion(question: QuizQuestion, n: number, total: number, io: IO): void {
  io.out(`\n${io.style.bold(`Question ${n} of ${total}`)}`);
  io.out(wrap(question.question));
  question.choices.forEach((choice, i) => {
    // The choice's text continues under itself, clear of its letter.
    io.out(wrap(`  ${letter(i)}) ${choice}`, WIDTH, '     '));
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

/** Asks every question; the number answered right, or undefined if the input ended too soon. */
async function ask(questions: QuizQuestion[], next: NextLine, io: IO): Promise<number | undefined> {
  let right = 0;
  for (const [i, question] of questions.entries()) {
    showQuestion(question, i + 1, questions.length, io);
    const answer = await readAnswer(next, question.choices.length, io);
    if (answer === undefined) {
      io.err(
        `The input ended at question ${i + 1} of ${questions.length} (${i} answered): ` +
          'no score recorded.',
      );
      return undefined;
    }
    if (answer === question.answer) {
      right++;
      io.out(io.style.green('✓ Right.'));
    } else {
      io.out(io.style.red(`✗ Wrong: the answer is ${letter(question.answer)}).`));
    }
    io.out(wrap(question.why));
  }
  return right;
}

function record(problem: Problem, score: number, total: number, io: IO): number {
  // Read progress afresh, under the lock: the learner may have judged a solution while answering.
  return updateProgress(io.err, (progress) => {
    const entry = entryFor(progress, problem.dir);
    const best = Math.max(entry.quiz?.best ?? 0, score);
    entry.quiz = { best, last: score, total, at: new Date().toISOString() };
    return best;
  });
}

export async function quiz(argv: string[], io: IO, input?: LineInput): Promise<number> {
  const { positionals } = parse(argv, {});
  if (positionals.length > 1) {
    throw new UsageError('name one problem at most: npm run quiz [problem]');
  }
  const problems = loadProblems();
  const progress = loadProgress(io.err);
  const problem = positionals[0]
    ? resolveProblem(problems, positionals[0])
    : pickQuiz(problems, progress);
  if (!problem) throw new UsageError('no problem has a quiz yet.');
  const questions = readQuiz(problem);

  io.out(io.style.bold(`Quiz · ${problem.id} · ${problem.title} · ${questions.length} questions`));
  if (!isSolved(progress, problem.dir)) {
    io.out(io.style.dim('Not solved yet: the questions talk about how the solution works.'));
  }
  // Standard input is read only when no other input was given, and let go of afterwards.
  const reader = input === undefined ? readLines() : undefined;
  const next = reader ? reader.next : toNextLine(input as LineInput);
  try {
    const score = await ask(questions, next, io);
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
