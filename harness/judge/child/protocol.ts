// The messages between the judge (parent) and its child process.
import type { CaseInfo, CaseResult } from '../outcome.ts';

export type ChildMessage =
  | { type: 'cases'; cases: CaseInfo[] }
  | { type: 'ready'; output: string }
  | {
      type: 'load-failed';
      status: 'compile-error' | 'runtime-error';
      message: string;
      stack?: string;
      output: string;
    }
  | { type: 'result'; index: number; result: CaseResult; output: string }
  /**
   * An async case, once its calls are listed: waiting for their answers may take up to `ms` of wall
   * time besides its CPU time (steps × call deadline), so the parent's wall backstop moves that much.
   */
  | { type: 'waiting'; index: number; ms: number };

export interface OpenRequest {
  type: 'open';
  /** The problem's runner script (suite, reference and case runner, as one script). */
  runner: string;
  learnerFile: string;
  className: string;
  /**
   * The Redis the suite's Redis client fixtures talk to (see harness/redis/facade.ts), when it has
   * any: the judge's own server, or the user's REDIS_URL.
   */
  redisUrl?: string;
  /** Where the judge's checks of a Redis case connect (see JudgeOptions.redisAdminUrl). */
  redisAdminUrl?: string;
  /**
   * What every Redis key of the suite starts with (see redisKey in harness/redis/facade.ts): the
   * judgement's own prefix (on a user's server, within the one the judge owns there).
   */
  redisKeyPrefix?: string;
}

/** The learner's bundle travels as text: the child reads no learner file itself. */
export interface LoadRequest {
  type: 'load';
  code: string;
  /** LeetCode's import-free libraries the code uses, run in its realm first. */
  libraries: string[];
}

export type ParentMessage =
  OpenRequest | LoadRequest | { type: 'run'; index: number } | { type: 'close' };

/** Where a problem's runner script leaves its suite and known-wrong modules, on the judge's global. */
export const RUNNER_GLOBAL = '__kataRunner';
