// The child process's side of the judge: load the learner's bundle, then run cases one at a time as
// the parent asks. The parent holds the clock and the kill switch; this side only reports.
import { pathToFileURL } from 'node:url';
import type { CaseInfo, CaseResult } from '../outcome.ts';
import type { AnyClass, Suite } from '../suite.ts';
import { DEFAULT_TIME_LIMIT_MS, runCase } from './run-case.ts';
import { learnerStack } from './stack.ts';

export type ChildMessage =
  | { type: 'cases'; cases: CaseInfo[] }
  | { type: 'ready' }
  | {
      type: 'load-failed';
      status: 'compile-error' | 'runtime-error';
      message: string;
      stack?: string;
    }
  | { type: 'result'; index: number; result: CaseResult };

export type ParentMessage = { type: 'load' } | { type: 'run'; index: number };

function send(message: ChildMessage): void {
  process.send?.(message);
}

/** Makes process.exit() an ordinary exception, so it shows up with a stack instead of a silent exit. */
function guardExit(): void {
  process.exit = ((code?: number) => {
    const error = new Error(
      `process.exit(${code ?? ''}) was called; a solution must return instead`,
    );
    error.name = 'ProcessExitError';
    throw error;
  }) as typeof process.exit;
}

/** Resolves when the parent says the learner's bundle is ready to load (it is compiled meanwhile). */
function loadRequested(): Promise<void> {
  return new Promise((resolve) => {
    const listener = (message: ParentMessage): void => {
      if (message.type !== 'load') return;
      process.off('message', listener);
      resolve();
    };
    process.on('message', listener);
  });
}

export async function serve(suite: Suite): Promise<void> {
  const [bundle, learnerFile, className] = process.argv.slice(2) as [string, string, string];
  const load = loadRequested();
  send({
    type: 'cases',
    cases: suite.cases.map((c) => ({
      name: c.name,
      tier: c.tier,
      trap: c.trap,
      hint: c.hint ?? null,
      timeLimitMs: c.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
      timeLimitSet: c.timeLimitMs !== undefined,
      retainedLimitMb: c.retainedLimitMb ?? null,
    })),
  });
  await load;
  guardExit();
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(bundle).href)) as Record<string, unknown>;
  } catch (error) {
    const err = error instanceof Error ? error : new Error(String(error));
    send({
      type: 'load-failed',
      status: 'runtime-error',
      message: `loading the solution threw ${err.name}: ${err.message}`,
      stack: learnerStack(err, learnerFile),
    });
    return;
  }
  const learner = exports[className];
  if (typeof learner !== 'function') {
    const found = Object.keys(exports);
    send({
      type: 'load-failed',
      status: 'compile-error',
      message:
        `${learnerFile} must export a class named ${className}` +
        (found.length > 0 ? ` (it exports: ${found.join(', ')})` : ' (it exports nothing)'),
    });
    return;
  }
  const ctx = { suite, learner: learner as AnyClass, className, learnerFile };
  process.on('message', (message: ParentMessage) => {
    const c = message.type === 'run' ? suite.cases[message.index] : undefined;
    if (c && message.type === 'run')
      send({ type: 'result', index: message.index, result: runCase(c, ctx) });
  });
  send({ type: 'ready' });
}
