// What the child sets up for a problem from its runner script's suite: the cases, and a function that
// runs one of them against the learner's class. It runs in the judge's own realm, beside the
// reference; the learner's class lives in a realm of its own and is reached only through a Port.
import type { CaseInfo, CaseResult } from '../outcome.ts';
import {
  caseHints,
  isAsyncCase,
  isFixed,
  isParallel,
  isScenario,
  decode,
  type AnyClass,
  type AnyFunction,
  type Case,
  type FixtureSpec,
  type Suite,
} from '../../suite.ts';
import type { ScenarioServices } from './drive-scenario.ts';
import type { Port } from './port.ts';
import { DEFAULT_TIME_LIMIT_MS, runCase } from './run-case.ts';
import { runCaseAsync } from './run-case-async.ts';

export interface ContextRunner {
  cases: CaseInfo[];
  /** Every fixture source the suite uses, to compile into the learner's realm before their code. */
  fixtureSources: string[];
  /** The services the suite's outbound fixtures talk to (`['redis']`), each once. */
  outbound: NonNullable<FixtureSpec['outbound']>[];
  run(
    index: number,
    learner: Port,
    className: string,
    learnerFile: string,
    mapStack: (stack: string) => string,
    fresh?: () => Port | undefined,
  ): CaseResult;
  /** Whether any case is async (the learner's realm then has timers). */
  anyAsync: boolean;
  /** Whether the learner exports a function, not a class (see Suite.exports). */
  exportsFunction: boolean;
  /** Whether case `index` is a scenario (played by a script of the suite's). */
  isScenario(index: number): boolean;
  /** Whether case `index` is async: then it is run by runAsync, not run. */
  isAsync(index: number): boolean;
  runAsync(
    index: number,
    learner: Port,
    className: string,
    learnerFile: string,
    mapStack: (stack: string) => string,
    onWaiting?: (ms: number) => void,
    services?: ScenarioServices,
  ): Promise<CaseResult>;
}

/** What a problem's runner script leaves on the judge's global (see runnerBundle in compile.ts). */
export interface RunnerScript {
  suite: Suite;
  wrongModules: WrongModule[];
}

/** A known-wrong implementation's module, as the runner script imports it. */
export interface WrongModule {
  file: string;
  module: Record<string, unknown>;
}

/** A known mistake the runner can replay to see whether a learner made it. */
export interface KnownWrong {
  file: string;
  trap: string;
  verdict: string;
  /** Its class (a function problem's function), found by the problem's name for it (or the default export). */
  find(className: string): AnyClass | AnyFunction | undefined;
}

function knownWrong({ file, module }: WrongModule): KnownWrong | undefined {
  const expectation = module.expectation as { trap?: unknown; verdict?: unknown } | undefined;
  if (typeof expectation?.trap !== 'string' || typeof expectation.verdict !== 'string') {
    return undefined;
  }
  return {
    file,
    trap: expectation.trap,
    verdict: expectation.verdict,
    find: (className) => {
      const found = module[className] ?? module.default;
      return typeof found === 'function' ? (found as AnyClass | AnyFunction) : undefined;
    },
  };
}

/** A suite's mistakes the judge can see before running anything, thrown as errors. */
function checkCase(suite: Suite, c: Case): void {
  if (isAsyncCase(suite, c)) {
    if (!isFixed(c) && !('generate' in c) && !isScenario(c)) {
      throw new Error(`case "${c.name}": a property case cannot be async`);
    }
  } else if (isScenario(c)) {
    throw new Error(`case "${c.name}": a scenario is played with await, so it needs an async case`);
  } else if (isFixed(c) && decode(c).some(isParallel)) {
    throw new Error(`case "${c.name}": a parallel step needs an async case`);
  } else if (Object.values(c.fixtures ?? {}).some((spec) => spec.outbound !== undefined)) {
    // Requests go out only while an answer is awaited: in a synchronous case none would ever go.
    throw new Error(`case "${c.name}": a fixture that talks to a service needs an async case`);
  }
}

export function createRunner(suite: Suite, wrongModules: WrongModule[] = []): ContextRunner {
  for (const c of suite.cases) checkCase(suite, c);
  const wrongs = wrongModules.map(knownWrong).filter((w) => w !== undefined);
  const fixtureSources = new Set<string>();
  const outbound = new Set<NonNullable<FixtureSpec['outbound']>>();
  for (const c of suite.cases) {
    for (const spec of Object.values(c.fixtures ?? {})) {
      fixtureSources.add(spec.source);
      if (spec.outbound !== undefined) outbound.add(spec.outbound);
    }
  }
  return {
    cases: suite.cases.map((c) => ({
      name: c.name,
      tier: c.tier,
      trap: c.trap,
      hints: caseHints(c.hint),
      needs: c.needs ?? [],
      timeLimitMs: c.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
      timeLimitSet: c.timeLimitMs !== undefined,
      retainedLimitMb: c.retainedLimitMb ?? null,
      beyondLeetCode: c.beyondLeetCode === true,
    })),
    fixtureSources: [...fixtureSources],
    outbound: [...outbound],
    anyAsync: suite.cases.some((c) => isAsyncCase(suite, c)),
    exportsFunction: suite.exports === 'function',
    run(index, learner, className, learnerFile, mapStack, fresh) {
      const c = suite.cases[index];
      if (!c) throw new Error(`no case ${index}`);
      return runCase(c, { suite, learner, className, learnerFile, mapStack, wrongs, fresh });
    },
    isScenario(index) {
      const c = suite.cases[index];
      return c !== undefined && isScenario(c);
    },
    isAsync(index) {
      const c = suite.cases[index];
      return c !== undefined && isAsyncCase(suite, c);
    },
    runAsync(index, learner, className, learnerFile, mapStack, onWaiting, services) {
      const c = suite.cases[index];
      if (!c) throw new Error(`no case ${index}`);
      const ctx = { suite, learner, className, learnerFile, mapStack, wrongs, onWaiting, services };
      return runCaseAsync(c, ctx);
    },
  };
}
