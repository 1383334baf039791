// Judges one solution file against one problem's suite. Learner code runs in a child process; a case
// that hangs, eats memory or kills its process costs only that case, and the next case gets a fresh
// child. Every case runs (within the problem's time budget) so the report names every trap.
import type { JudgeRedisOptions } from '../redis/session.ts';
import { RedisFailedError } from '../redis/server.ts';
import path from 'node:path';
import { ChildSession, type Death, type LoadOutcome } from './child-session.ts';
import { compileLearner, runnerBundle, workerBundle } from './compile.ts';
import { diagnose } from './diagnose.ts';
import { memoKey, recall, remember } from './memo.ts';
import { hintFor, type CaseInfo, type CaseResult, type ProblemReport } from './outcome.ts';
import type { Problem } from './problems.ts';
import { typeErrorMessage } from './typecheck.ts';
import { byTier, countFollowUps, decideVerdict } from './verdict.ts';

/**
 * CPU time the cases of one problem may take in all (a case stopped for time counts its deadline);
 * cases not reached by then are skipped. CPU time, so that a busy machine skips nothing more.
 */
export const PROBLEM_BUDGET_MS = 6000;
/**
 * Wall time the cases of one problem may take in all: the CPU budget with the ten times slack
 * every wall-clock backstop has. Cases not reached by then are skipped, and such a judgement, which
 * rests on the machine's load, is not remembered.
 */
export const PROBLEM_WALL_MS = 10 * PROBLEM_BUDGET_MS;
/** A cancelled child waits at most this long to list its cases (it takes tens of milliseconds). */
const LISTING_WAIT_MS = 1000;

export interface JudgeOptions {
  problem: Problem;
  solutionFile: string;
  /** Called as each case finishes, in the order they run (examples, core, follow-ups). */
  onCase?: (result: CaseResult) => void;
  /** Called once the verdict is known: at the first failing example or core case, else before the follow-ups. */
  onDecided?: (verdict: ProblemReport['verdict']) => void;
  budgetMs?: number;
  /** Reuse the child process in this slot, and leave it there for the next problem. */
  slot?: SessionSlot;
  /** Runs only the follow-ups this accepts (all by default); the others are reported skipped. */
  followUps?: (info: CaseInfo) => boolean;
  /**
   * Cancels the judgement: the child is killed at once (whatever it is running), no further case
   * runs, and the report comes back marked cancelled, with nothing decided.
   */
  signal?: AbortSignal;
  /**
   * Remember the judgement of the cases by everything that decides it (see memo.ts), and with
   * `reuse`, give the one remembered for the same code, suite and judge instead of judging again.
   */
  memo?: { reuse: boolean };
  /**
   * Checks the file's types as LeetCode does, alongside the cases (on unless false): type errors
   * make the verdict a compile error, and stop the cases once they are known (see typecheck.ts).
   */
  typeCheck?: boolean;
  /**
   * The Redis of a problem whose suite has Redis client fixtures (harness/redis/facade.ts): where
   * the child connects one client per fixture, where the judge's own checks connect, and the key
   * prefix of this judgement (see JudgeRedisOptions; starting the server is the caller's, e.g.
   * CommandRedis.optionsFor). Asked for only once the cases are about to run: a verdict the memo
   * keeps needs no Redis, so a grade whose kept verdicts answer everything starts none. A
   * rejection (Redis could not be started) rejects the judgement.
   */
  redis?: () => Promise<JudgeRedisOptions>;
  /**
   * Stops a case the moment its CPU time passes its limit, instead of half again past it (see
   * killDeadline). The verdict is the same either way; what is lost is how far over the limit the
   * code would have gone, which a learner is told and a proof does not need: the tests that prove
   * a slow known mistake is caught use it, so as not to burn the extra CPU time on every run.
   */
  stopAtLimit?: boolean;
}

/** A case is killed once its CPU time overruns its limit by half again plus a little. */
export function killDeadline(timeLimitMs: number): number {
  return Math.round(timeLimitMs * 1.5 + 250);
}

function describeDeath(
  death: Death,
  info: CaseInfo,
  deadline: number,
): Pick<CaseResult, 'status' | 'message'> {
  switch (death.why) {
    case 'timeout':
      return { status: 'time-limit-exceeded', message: describeTimeout(death, info, deadline) };
    case 'memory':
      return { status: 'memory-limit-exceeded', message: 'the process ran out of memory' };
    case 'exit':
      return {
        status: 'runtime-error',
        message: `the process ended (${death.signal ?? `exit code ${death.code}`}) during this case; a solution must not exit or crash its process`,
      };
  }
}

/** What stopped a case for time, as it happened: CPU time, time blocked, or wall time. */
function describeTimeout(
  death: Extract<Death, { why: 'timeout' }>,
  info: CaseInfo,
  deadline: number,
): string {
  const within = `no answer within ${info.timeLimitMs} ms`;
  const stalled = death.stalled;
  if (stalled === undefined) return `${within} (stopped after ${deadline} ms)`;
  const spent = `${stalled.wallMs} ms of wall time, using ${stalled.cpuMs} ms of CPU`;
  return stalled.blocked
    ? `${within}: it was blocked, not computing (Atomics.wait?), and was stopped after ${spent}`
    : `${within}: stopped after ${spent} (the machine gave it too little CPU, or it waited)`;
}

/** The verdict and message when the learner's module never became ready. */
function loadFailure(
  loaded: Exclude<LoadOutcome, { kind: 'ready' }>,
): Pick<ProblemReport, 'verdict' | 'message'> {
  if (loaded.kind === 'load-failed') {
    const message = loaded.message + (loaded.stack ? `\n${loaded.stack}` : '');
    return {
      verdict: loaded.status === 'compile-error' ? 'compile-error' : 'runtime-error',
      message,
    };
  }
  if (loaded.reason.why === 'timeout') {
    return {
      verdict: 'time-limit-exceeded',
      message: loaded.reason.stalled?.blocked
        ? 'the solution file did not finish loading: it was blocked at its top level (Atomics.wait?)'
        : 'the solution file did not finish loading: is there a loop at its top level?',
    };
  }
  if (loaded.reason.why === 'memory') {
    return {
      verdict: 'memory-limit-exceeded',
      message: 'the process ran out of memory while loading the solution',
    };
  }
  return { verdict: 'runtime-error', message: 'the process ended while loading the solution' };
}

function blank(
  info: Pick<CaseInfo, 'name' | 'tier' | 'trap'>,
  status: CaseResult['status'],
  message: string,
): CaseResult {
  return {
    name: info.name,
    tier: info.tier,
    trap: info.trap,
    hint: null,
    status,
    ms: 0,
    message,
  };
}

function report(
  problem: Problem,
  results: CaseResult[],
  started: number,
  output: string,
  extra: Partial<ProblemReport> = {},
): ProblemReport {
  return {
    dir: problem.dir,
    verdict: decideVerdict(results),
    cases: results,
    followUps: countFollowUps(results),
    output,
    ms: Math.round(performance.now() - started),
    ...extra,
  };
}

/**
 * A child process kept between problems. Passing the same slot to several judge() calls (one after
 * another) reuses its process; the caller kills what is left in it when done (see releaseSlot).
 */
export interface SessionSlot {
  session?: ChildSession;
  /**
   * Keep a second child started and waiting (watch mode): when the first is killed (a loop
   * stopped, a judgement cancelled), the next judgement takes the waiting one instead of paying
   * for a process start.
   */
  keepSpare?: boolean;
  spare?: ChildSession;
}

export function releaseSlot(slot: SessionSlot): void {
  slot.session?.kill();
  slot.session = undefined;
  slot.spare?.kill();
  slot.spare = undefined;
}

/**
 * Judges the file and checks its types at once. The cases do not wait for the check (a verdict
 * comes as soon as it would without it); the report does, and type errors turn it into a compile
 * error, as LeetCode runs nothing that does not compile.
 */
export async function judge(options: JudgeOptions): Promise<ProblemReport> {
  if (options.typeCheck === false) return judgeCases(options);
  const { signal } = options;
  const started = performance.now();
  const halt = new AbortController();
  const forward = (): void => halt.abort();
  if (signal?.aborted) halt.abort();
  signal?.addEventListener('abort', forward, { once: true });
  let errors: string | undefined;
  const checking = typeErrorMessage(options.solutionFile, {
    home: path.dirname(options.problem.stubFile),
    signal: halt.signal,
  }).then((found) => {
    if (found !== undefined && !halt.signal.aborted) {
      errors = found;
      halt.abort();
    }
  });
  const report = await judgeCases({
    ...options,
    signal: halt.signal,
    onCase: (result) => {
      if (errors === undefined) options.onCase?.(result);
    },
    onDecided: (verdict) => {
      if (errors === undefined) options.onDecided?.(verdict);
    },
  }).catch((error: unknown) => {
    // Nothing was judged (Redis could not be started): the check has no one to tell either.
    halt.abort();
    signal?.removeEventListener('abort', forward);
    throw error;
  });
  try {
    if (signal?.aborted) return report;
    if (report.verdict === 'compile-error') {
      // esbuild's own compile error (a syntax error, an import) says it first, and better.
      halt.abort();
      return { ...report, cancelled: undefined };
    }
    await checking;
    // Cancelled while the check was still running: as cancelled as any other judgement.
    if (signal?.aborted) return { ...report, cancelled: true };
    if (errors === undefined) return report;
    return typeErrorReport(report, errors, Math.round(performance.now() - started));
  } finally {
    signal?.removeEventListener('abort', forward);
  }
}

/**
 * The report of a file with type errors (`message`, see typecheck.ts): a compile error, every case
 * skipped, whatever ran meanwhile. A compile error of esbuild's own stays as it is: it says it first.
 */
export function typeErrorReport(
  report: ProblemReport,
  message: string,
  ms = report.ms,
): ProblemReport {
  if (report.verdict === 'compile-error') return report;
  const cases = report.cases.map((c) =>
    blank(c, 'skipped', 'not run: the solution does not compile'),
  );
  return {
    dir: report.dir,
    verdict: 'compile-error',
    cases,
    followUps: countFollowUps(cases),
    output: '',
    ms,
    message,
  };
}

async function judgeCases(options: JudgeOptions): Promise<ProblemReport> {
  const { problem } = options;
  const solutionFile = path.resolve(options.solutionFile);
  const budget = options.budgetMs ?? PROBLEM_BUDGET_MS;
  const started = performance.now();
  const output = { text: '' };
  const slot = options.slot ?? {};
  const { signal } = options;
  const cancelled = (): boolean => signal?.aborted === true;
  // Only the child at work is killed: a waiting spare serves the next judgement.
  const stop = (): void => {
    slot.session?.kill();
    slot.session = undefined;
  };
  // Cancelled (a type error found, a newer save): the child goes once it has listed the suite's
  // cases, the runner's work before any learner code loads, so that the report of a judgement cut
  // short still names every case. A type error can be known before that: a kept answer is at once.
  const cancel = (): void => {
    slot.session?.killOnceListed(LISTING_WAIT_MS);
    slot.session = undefined;
  };
  signal?.addEventListener('abort', cancel, { once: true });
  const runner = await runnerBundle(problem.suiteFile);
  const worker = await workerBundle();
  let key: string | undefined;
  // A judgement stopped at the limits tells less than a learner's report: it is never remembered.
  if (options.memo && !options.stopAtLimit) {
    // Compiled first (from its cache, most often): its code is part of the key.
    const compiled = await compileLearner(solutionFile);
    if (compiled.ok) {
      key = memoKey({
        workerBundle: worker,
        runnerBundle: runner,
        learnerFile: solutionFile,
        learnerCode: compiled.code,
        libraries: compiled.libraries,
        className: problem.className,
      });
      const remembered = key !== undefined && options.memo.reuse ? recall(key) : undefined;
      if (remembered) {
        signal?.removeEventListener('abort', cancel);
        return remembered;
      }
    }
  }
  // Not kept: the cases run, and a Redis problem needs its server now (see JudgeOptions.redis).
  const redis = await options.redis?.().catch((error: unknown) => {
    signal?.removeEventListener('abort', cancel);
    throw error;
  });
  const { redisUrl, redisAdminUrl, redisKeyPrefix } = redis ?? {};
  // The judgement's Redis is its own: given back as soon as it is done (its owner waits for it).
  const release = (): void => void redis?.release?.().catch(() => undefined);
  const request = {
    runner,
    learnerFile: solutionFile,
    className: problem.className,
    ...(redisUrl === undefined ? {} : { redisUrl }),
    ...(redisAdminUrl === undefined ? {} : { redisAdminUrl }),
    ...(redisKeyPrefix ? { redisKeyPrefix } : {}),
  };
  /** A live child with this problem open: the slot's, or a fresh one when it has died. */
  const openSession = (): ChildSession => {
    if (!slot.session?.alive) {
      const spare = slot.spare?.alive ? slot.spare : undefined;
      slot.spare = undefined;
      slot.session = spare ?? new ChildSession(worker);
    }
    if (slot.keepSpare && !slot.spare?.alive) {
      // Opened on this problem at once: its runner is loaded (and compiled) before it is needed.
      slot.spare = new ChildSession(worker);
      slot.spare.open(request);
    }
    slot.session.output = output;
    slot.session.open(request);
    return slot.session;
  };
  const finish = (result: ProblemReport): ProblemReport => {
    signal?.removeEventListener('abort', cancel);
    release();
    if (options.slot) slot.session?.close();
    else releaseSlot(slot);
    if (cancelled()) return { ...result, cancelled: true };
    if (key !== undefined) remember(key, result);
    return result;
  };

  // The child loads the runner while the learner's file compiles; it loads that file when told to.
  let session = openSession();
  const compiled = await compileLearner(solutionFile);
  if (!compiled.ok) {
    const listed = await session.listed();
    const skipped = byTier(listed ?? []).map((info) =>
      blank(info, 'skipped', 'not run: the solution does not compile'),
    );
    return finish({
      ...report(problem, skipped, started, ''),
      verdict: 'compile-error',
      message: compiled.message,
    });
  }

  const loaded: LoadOutcome = await session.load(compiled.code, compiled.libraries);
  const cases = byTier((loaded.cases ?? []).map((info, index) => ({ ...info, index })));
  if (loaded.kind !== 'ready') {
    // The child may be stuck in the learner's top-level code: it cannot serve anyone else.
    stop();
    const results = cases.map((info) =>
      blank(info, 'skipped', 'not run: the solution failed to load'),
    );
    return finish({ ...report(problem, results, started, output.text), ...loadFailure(loaded) });
  }

  const results: CaseResult[] = [];
  let spentMs = 0;
  /** Cut short by the problem's wall time: the verdict then rests on the machine's load. */
  let wallCut = false;
  let decided = false;
  const decide = (): void => {
    if (!decided && !cancelled()) options.onDecided?.(decideVerdict(results));
    decided = true;
  };
  for (const info of cases) {
    if (info.tier === 'follow-up') decide();
    let result: CaseResult;
    if (cancelled()) {
      result = blank(info, 'skipped', 'not run: the judgement was cancelled');
    } else if (info.tier === 'follow-up' && options.followUps && !options.followUps(info)) {
      result = blank(info, 'skipped', 'not run: not asked for');
    } else if (spentMs >= budget) {
      result = blank(
        info,
        'skipped',
        `not run: the problem's ${budget / 1000} s budget of CPU time was spent`,
      );
    } else if (performance.now() - started >= PROBLEM_WALL_MS) {
      wallCut = true;
      result = blank(
        info,
        'skipped',
        `not run: the problem took ${PROBLEM_WALL_MS / 1000} s of wall time already`,
      );
    } else {
      if (!session.alive) {
        session = openSession();
        await session.load(compiled.code, compiled.libraries);
      }
      const deadline = options.stopAtLimit ? info.timeLimitMs : killDeadline(info.timeLimitMs);
      const wallLeft = (): number => Math.max(0, PROBLEM_WALL_MS - (performance.now() - started));
      let outcome = await session.run(info.index, deadline, wallLeft());
      // A child that ended with no reason of ours (not stopped for time or memory; learner code
      // has no process to exit) died of something outside the judge: run the case once more in a
      // fresh child, so that a verdict never rests on such an accident.
      if (outcome.kind === 'died' && outcome.reason.why === 'exit' && !cancelled()) {
        session = openSession();
        await session.load(compiled.code, compiled.libraries);
        outcome = await session.run(info.index, deadline, wallLeft());
      }
      result =
        outcome.kind === 'result'
          ? outcome.result
          : {
              ...blank(info, 'passed', ''),
              ...describeDeath(outcome.reason, info, deadline),
              // The CPU time seen spent (at least its deadline, when stopped for time).
              ms:
                outcome.reason.why === 'timeout'
                  ? Math.max(deadline, Math.round(session.spentMs))
                  : Math.round(session.spentMs),
            };
      // The budget counts a case stopped for time as its deadline, whatever the poll saw after.
      spentMs += outcome.kind === 'died' && outcome.reason.why === 'timeout' ? deadline : result.ms;
    }
    // A case cut short by the cancellation says so, not that the process ended.
    if (cancelled() && result.status !== 'passed') {
      result = blank(info, 'skipped', 'not run: the judgement was cancelled');
    }
    if (result.judgeFailure !== undefined) {
      // The judge's own failure: no verdict comes of it, none is kept, and it is not the learner's.
      signal?.removeEventListener('abort', cancel);
      stop();
      release();
      throw new RedisFailedError(
        `the judge's Redis failed during case ${info.name} (${result.judgeFailure}); nothing was judged or kept: judge again`,
      );
    }
    result.hint = hintFor(info.hints, result.answerWanted ? 'failed' : result.status);
    if (info.beyondLeetCode) result.beyondLeetCode = true;
    results.push(result);
    options.onCase?.(result);
    // The first example or core case that fails decides the verdict (unless it only reached the
    // stub's "Not implemented"): say it now, not after the cases still to come.
    const decisive = result.status !== 'passed' && result.status !== 'skipped';
    if (info.tier !== 'follow-up' && decisive && !result.notImplemented) decide();
  }
  decide();
  if (performance.now() - started >= PROBLEM_WALL_MS) wallCut = true;
  if (wallCut) key = undefined;
  const failed = results.some((r) => r.status !== 'passed' && r.status !== 'skipped');
  return finish({
    ...report(problem, results, started, output.text),
    ...(failed ? { diagnosis: diagnose(results, cases) } : {}),
  });
}
