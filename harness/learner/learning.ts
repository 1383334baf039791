// The learning material kept beside each reference: hints, quiz questions, an explanation and the
// pristine stub. Read and checked here, so that every command sees the same, valid content.
import path from 'node:path';
import type { Problem } from '../judge/problems.ts';
import { readRegularFile, readTextOrThrow } from '../read-file.ts';

export interface QuizQuestion {
  question: string;
  choices: string[];
  /** Index of the right choice. */
  answer: number;
  /** Why the right choice is right: shown after every answer. */
  why: string;
}

const MIN_HINTS = 3;
/** Hints, a quiz, an explanation or a stub is a few kilobytes; a file far larger is not one. */
const MAX_MATERIAL_BYTES = 1024 * 1024;

/** A material file's text, or an Error of one line (it is a pipe, a folder, too large…). */
export const readMaterialFile = (file: string): string =>
  readTextOrThrow(file, MAX_MATERIAL_BYTES, 'such a file');
const MIN_QUESTIONS = 5;

const file = (problem: Problem, name: string): string =>
  path.join(path.dirname(problem.suiteFile), name);

const hintsFile = (problem: Problem): string => file(problem, 'hints.json');
export const quizFile = (problem: Problem): string => file(problem, 'quiz.json');
const explanationFile = (problem: Problem): string => file(problem, 'explanation.md');
/** The stub as shipped, kept once: `reset` copies it back, a test holds problems/ equal to it. */
export const pristineStubFile = (problem: Problem): string => file(problem, 'stub.ts');

/**
 * Whether the learner's solution.ts is still the stub as shipped (through a link too): a file that
 * was never touched. False when either cannot be read; a larger file is not even read.
 */
export function isShippedStub(problem: Problem): boolean {
  try {
    const pristine = readMaterialFile(pristineStubFile(problem));
    const read = readRegularFile(problem.stubFile, Buffer.byteLength(pristine));
    return read.kind === 'text' && read.text === pristine;
  } catch {
    return false;
  }
}

export function loadHints(problem: Problem): string[] {
  const hints: unknown = JSON.parse(readMaterialFile(hintsFile(problem)));
  if (
    !Array.isArray(hints) ||
    hints.length < MIN_HINTS ||
    !hints.every((h) => typeof h === 'string' && h.trim())
  ) {
    throw new Error(`${hintsFile(problem)} must be an array of at least ${MIN_HINTS} hints`);
  }
  return hints as string[];
}

function isQuestion(q: unknown): q is QuizQuestion {
  const v = q as QuizQuestion;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.question === 'string' &&
    typeof v.why === 'string' &&
    Array.isArray(v.choices) &&
    v.choices.length >= 2 &&
    v.choices.every((c) => typeof c === 'string') &&
    Number.isInteger(v.answer) &&
    v.answer >= 0 &&
    v.answer < v.choices.length
  );
}

export function loadQuiz(problem: Problem): QuizQuestion[] {
  const quiz: unknown = JSON.parse(readMaterialFile(quizFile(problem)));
  if (!Array.isArray(quiz) || quiz.length < MIN_QUESTIONS || !quiz.every(isQuestion)) {
    throw new Error(
      `${quizFile(problem)} must be an array of at least ${MIN_QUESTIONS} well-formed questions`,
    );
  }
  return quiz;
}

export function loadExplanation(problem: Problem): string {
  return readMaterialFile(explanationFile(problem));
}
