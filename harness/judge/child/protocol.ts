// The messages between the judge (parent) and its child process, and the globals through which the
// scripts evaluated in a problem's vm context hand over what they define.
import type { CaseInfo, CaseResult } from '../outcome.ts';

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

export interface OpenRequest {
  type: 'open';
  /** The problem's runner script (suite, reference and case runner, as one script). */
  runner: string;
  /** The learner's bundle, compiled while the runner loads; read only on `load`. */
  learnerBundle: string;
  learnerFile: string;
  className: string;
}

export type ParentMessage =
  OpenRequest | { type: 'load' } | { type: 'run'; index: number } | { type: 'close' };

/** Where the runner script leaves its ContextRunner. */
export const RUNNER_GLOBAL = '__kataRunner';
/** Where the learner's bundle leaves its exports. */
export const LEARNER_GLOBAL = '__kataLearner';
