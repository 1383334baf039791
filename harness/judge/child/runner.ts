// What a problem's runner script sets up: the suite's cases, and a function that runs one of them
// against the learner's class. It runs in the judge's own realm, beside the reference; the learner's
// class lives in a realm of its own and is reached only through a Port.
import type { CaseInfo, CaseResult } from '../outcome.ts';
import type { Suite } from '../../suite.ts';
import type { Port } from './port.ts';
import { RUNNER_GLOBAL } from './protocol.ts';
import { DEFAULT_TIME_LIMIT_MS, runCase } from './run-case.ts';

export { RUNNER_GLOBAL };

export interface ContextRunner {
  cases: CaseInfo[];
  /** Every fixture source the suite uses, to compile into the learner's realm before their code. */
  fixtureSources: string[];
  run(
    index: number,
    learner: Port,
    className: string,
    learnerFile: string,
    mapStack: (stack: string) => string,
  ): CaseResult;
}

export function createRunner(suite: Suite): ContextRunner {
  const fixtureSources = new Set<string>();
  for (const c of suite.cases) {
    for (const spec of Object.values(c.fixtures ?? {})) fixtureSources.add(spec.source);
  }
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
    fixtureSources: [...fixtureSources],
    run(index, learner, className, learnerFile, mapStack) {
      const c = suite.cases[index];
      if (!c) throw new Error(`no case ${index}`);
      return runCase(c, { suite, learner, className, learnerFile, mapStack });
    },
  };
}
