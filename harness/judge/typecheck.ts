// Type errors, as LeetCode reports them. esbuild only strips types (compile.ts), so on its own the
// judge would run `const n: string = 5`; LeetCode compiles TypeScript with tsc and calls that a
// Compile Error. Here the learner's file is checked with LeetCode's compiler options by one
// TypeScript language service per process, kept in a worker thread: started once (a second or
// two), then incremental, so a save costs tens of milliseconds and the judge's own thread never
// waits on the checker. Without the `typescript` package (a production-only install) nothing is
// checked and the judge works as before.
//
// The parts: typecheck/setup.ts (what the checker is started with), server.ts (its program),
// snapshot.ts (its fast start), checker.ts (its life in this process), answers.ts (answers kept).
import path from 'node:path';
import { readSolution } from '../read-file.ts';
import { answerFile, keepAnswer, keptAnswer } from './typecheck/answers.ts';
import { askChecker, canCheck, startCheckerEarly } from './typecheck/checker.ts';
import { CHECKER_SOURCE, type TypeDiagnostic } from './typecheck/server.ts';
import { checkerSetup, typescriptPath } from './typecheck/setup.ts';
import { buildCheckerSnapshot } from './typecheck/snapshot.ts';

/** A compile error message lists this many type errors at most. */
const MAX_SHOWN = 10;

export interface CheckOptions {
  /** The problem's folder: relative imports that do not resolve from the file resolve from there. */
  home?: string;
  /** Stops waiting (the answer is then undefined); the check itself runs to its end in the worker. */
  signal?: AbortSignal;
  /** Nobody waits for the answer yet (a warm-up): the process may end meanwhile. */
  background?: boolean;
}

/**
 * The type errors in the file, checked as LeetCode checks it; only errors located in the file
 * itself count. Undefined when nothing could be checked: TypeScript is not installed, or the check
 * was given up. An unreadable file has no type errors here: compiling it says why it cannot be read.
 * Checks are answered in the order they are asked for.
 */
export function checkTypes(
  file: string,
  options: CheckOptions = {},
): Promise<TypeDiagnostic[] | undefined> {
  const { signal } = options;
  // Without TypeScript nothing is checked, kept answers included: the judge works as it did.
  if (!canCheck() || signal?.aborted) return Promise.resolve(undefined);
  // Read as compiling reads it: a pipe, a device or a huge file is refused at once, never waited on.
  const read = readSolution(file);
  if (!read.ok) return Promise.resolve([]); // compiling it says why it cannot be read
  const text = read.text;
  const where = answerFile(file, text, options.home);
  const withFile = (errors: Omit<TypeDiagnostic, 'file'>[]): TypeDiagnostic[] =>
    errors.map((error) => ({ file, ...error }));
  const kept = keptAnswer(where);
  if (kept !== undefined) return Promise.resolve(withFile(kept));
  const ask = { file: path.resolve(file), text, home: options.home };
  return askChecker(ask, !options.background, signal).then((answer) => {
    if (answer !== undefined) keepAnswer(where, answer);
    return answer && withFile(answer.errors);
  });
}

/** Type errors as a compile error message: where each is, TypeScript's text, the line it is on. */
export function formatTypeErrors(errors: TypeDiagnostic[]): string {
  const shown = errors.slice(0, MAX_SHOWN).map((error) => {
    const file = path.relative(process.cwd(), path.resolve(error.file)) || error.file;
    const message = error.message.replaceAll('\n', '\n  ');
    const source = error.lineText.trim() ? `\n    ${error.lineText.trim()}` : '';
    return `${file}:${error.line}:${error.column}: error TS${error.code}: ${message}${source}`;
  });
  const more = errors.length - shown.length;
  if (more > 0) shown.push(`… and ${more} more type error${more === 1 ? '' : 's'}`);
  return shown.join('\n');
}

/** The file's type errors as a compile error message; undefined when it has none (or none known). */
export async function typeErrorMessage(
  file: string,
  options: CheckOptions = {},
): Promise<string | undefined> {
  const errors = await checkTypes(file, options);
  return errors && errors.length > 0 ? formatTypeErrors(errors) : undefined;
}

/**
 * Starts the checker for watch mode and checks the file in the background (see typeErrorMessage).
 * Its thread runs at a lower priority (on Linux), so that a check gives way to the cases being
 * judged beside it: there the verdict's every millisecond shows, and type errors may follow.
 */
export function warmTypeChecker(
  file: string,
  options: Omit<CheckOptions, 'background'> = {},
): Promise<string | undefined> {
  startCheckerEarly();
  return typeErrorMessage(file, { ...options, background: true });
}

/**
 * Builds the checker's startup snapshot now (typecheck/snapshot.ts), so that no later process
 * pays TypeScript's cold start: `npm install` runs it. Resolves whether the snapshot exists.
 */
export function prepareTypeChecker(): Promise<boolean> {
  const typescript = typescriptPath();
  if (typescript === undefined) return Promise.resolve(false);
  return buildCheckerSnapshot(checkerSetup(typescript, false), CHECKER_SOURCE);
}
