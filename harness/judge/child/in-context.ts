// What a problem's runner script sets up inside its vm context: the suite's cases, and a function that
// runs one of them against the learner's class. It runs in the same context as the learner's code,
// so errors, arrays and `instanceof` all belong to one realm.
import type { CaseInfo, CaseResult } from '../outcome.ts';
import type { AnyClass, Suite } from '../../suite.ts';
import { RUNNER_GLOBAL } from './protocol.ts';
import { DEFAULT_TIME_LIMIT_MS, runCase } from './run-case.ts';

export { RUNNER_GLOBAL };

export interface ContextRunner {
  cases: CaseInfo[];
  run(
    index: number,
    learner: AnyClass,
    className: string,
    learnerFile: string,
    mapStack: (stack: string) => string,
  ): CaseResult;
}

export function createRunner(suite: Suite): ContextRunner {
  return {
    cases: suite.cases.map((c) => ({
      name: c.name,
      tier: c.tier,
      trap: c.trap,
      hint: c.hint ?? null,
      timeLimitMs: c.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
      timeLimitSet: c.timeLimitMs !== undefined,
      retainedLimitMb: c.retainedLimitMb ?? null,
    })),
    run(index, learner, className, learnerFile, mapStack) {
      const c = suite.cases[index];
      if (!c) throw new Error(`no case ${index}`);
      return runCase(c, { suite, learner, className, learnerFile, mapStack });
    },
  };
}
