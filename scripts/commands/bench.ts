// `npm run bench`: the figures behind the judge's limits and speed, measured on this machine.
//  1. Every case whose suite sets its own time or memory limit (the scale and memory traps): the
//     reference's worst time and retained memory over several runs, each accepted shape of
//     test/compat/<problem-dir>/ once (designs that must pass too), and each known-wrong
//     implementation of that trap, run once with a deadline of 10× the limit. Times are CPU time,
//     as the judge counts them. The margins should be 10× both ways, so that no verdict flips on a
//     slow or busy machine.
//  2. `grade` over every problem with the references as solutions, against a bare `vitest run` of one
//     trivial test in this repo: the floor any judge built on this stack pays. Timed as a learner
//     runs it (one solution edited since the last grade, the others' verdicts kept) and --fresh.
//  3. Watch mode: from saving the stub to the verdict on example and core cases, and to the report
//     of a type error; and what the type checker costs, cold and per save.
//  4. What starting and stopping the judge's Redis adds to a command, and each Redis kata's save →
//     verdict in watch mode, for a correct solution (scripts/lib/bench-redis.ts).
//  `npm run bench -- --load` instead grades every known file many times on a saturated machine and
//  counts verdicts that flip (scripts/lib/bench-load.ts).
// A problem that requires Redis is judged on a Redis the bench starts (or REDIS_URL), one for the
// whole run, as grade does; without Redis it is skipped, with a line saying why.
// It only reads the repo: what it writes goes to a temporary copy and to node_modules/.cache.
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChildSession, type RunOutcome } from '../../harness/judge/child-session.ts';
import { benchRedis, benchRedisWatch } from '../lib/bench-redis.ts';
import { compileLearner, runnerBundle, workerBundle } from '../../harness/judge/compile.ts';
import { readExpectation } from '../../harness/judge/expectation.ts';
import { checkTypes } from '../../harness/judge/typecheck.ts';
import type { CaseInfo } from '../../harness/judge/outcome.ts';
import { REPO_ROOT, SCRATCH_DIR } from '../../harness/paths.ts';
import { loadProblems, type Problem } from '../../harness/judge/problems.ts';
import { unmetRequirement } from '../../harness/judge/requirements.ts';
import { RedisStartError } from '../../harness/redis/server.ts';
import {
  CommandRedis,
  redisStartLine,
  type JudgeRedisOptions,
} from '../../harness/redis/session.ts';
import { makeStyle } from '../../harness/terminal/style.ts';
import { BENCH_OPTIONS, loadMain, WORKER_FLAG } from '../lib/bench-load.ts';
import { parse, runCommand, shownArg, UsageError, type IO } from '../lib/cli.ts';
import { watchKata } from '../lib/watched-kata.ts';
import { compatFiles } from '../lib/compat-corpus.ts';
import { copyRepo } from '../lib/repo-copy.ts';

const REFERENCE_RUNS = 5;
const TIMING_RUNS = 5;
const WATCH_SAVES = 6;
const TYPE_ERROR_SAVES = 3;
const TYPE_CHECKS = 10;
const SLOW_FACTOR = 10;

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

/** The Redis of the bench's judgements, started for the first problem that requires it. */
const redis = new CommandRedis();

/** Runs one case of one solution in a fresh child, as the judge does, with the given deadline. */
async function runCase(
  problem: Problem,
  file: string,
  index: number,
  deadlineMs: number,
): Promise<RunOutcome | undefined> {
  const compiled = await compileLearner(file);
  if (!compiled.ok) throw new Error(compiled.message);
  const session = new ChildSession(await workerBundle());
  // A Redis of its own for every run, as for every judgement (nothing for a problem without Redis).
  const { release, ...redisOptions } = await redis.optionsFor(problem);
  try {
    session.open({
      runner: await runnerBundle(problem.suiteFile),
      learnerFile: file,
      className: problem.className,
      ...redisOptions,
    });
    // With LeetCode's libraries, as the judge loads them: an accepted shape may use its globals.
    const loaded = await session.load(compiled.code, compiled.libraries);
    return loaded.kind === 'ready' ? await session.run(index, deadlineMs) : undefined;
  } finally {
    session.kill();
    await release?.();
  }
}

async function listCases(problem: Problem, redisOptions: JudgeRedisOptions): Promise<CaseInfo[]> {
  const session = new ChildSession(await workerBundle());
  const { release, ...options } = redisOptions;
  session.open({
    runner: await runnerBundle(problem.suiteFile),
    learnerFile: problem.referenceFile,
    className: problem.className,
    ...options,
  });
  const cases = (await session.listed()) ?? [];
  session.kill();
  await release?.();
  return cases;
}

async function wrongFor(problem: Problem, trap: string | null): Promise<string[]> {
  const files = readdirSync(problem.mistakesDir).filter((f) => f.endsWith('.ts'));
  const matching: string[] = [];
  for (const file of files) {
    const expectation = await readExpectation(path.join(problem.mistakesDir, file));
    if (expectation.trap === trap) matching.push(file);
  }
  return matching;
}

/**
 * The shapes of test/compat/<problem-dir>/ expected to be accepted (their verdict, on the example
 * and core cases): the designs a limit is set against, beside the reference, when they must pass
 * the follow-up too. A shape the follow-up is meant to catch shows as unfinished.
 */
function acceptedShapes(problem: Problem): string[] {
  return compatFiles(problem.dir, (e) => e.verdict === 'accepted');
}

const ratio = (big: number, small: number): string =>
  small <= 0 ? '∞' : `${(big / small).toFixed(1)}×`;

async function benchLimits(only?: Set<string>): Promise<void> {
  out(
    `Limits of the scale and memory traps (reference: worst of ${REFERENCE_RUNS} runs; known-wrong: one run, stopped at ${SLOW_FACTOR}× the limit)`,
  );
  for (const problem of loadProblems()) {
    if (only && !only.has(problem.id) && !only.has(problem.dir)) continue;
    const unmet = unmetRequirement(problem);
    if (unmet) {
      out(`\n${problem.id} · skipped, not measured: ${unmet.label} (${unmet.note})`);
      continue;
    }
    let redisOptions: JudgeRedisOptions;
    try {
      redisOptions = await redis.optionsFor(problem);
    } catch (error) {
      if (!(error instanceof RedisStartError)) throw error;
      out(
        `\n${problem.id} · skipped, not measured: Redis could not be started (${redisStartLine(error)})`,
      );
      continue;
    }
    const cases = (await listCases(problem, redisOptions)).map((info, index) => ({
      ...info,
      index,
    }));
    for (const info of cases.filter((c) => c.timeLimitSet || c.retainedLimitMb !== null)) {
      out(`\n${problem.id} · ${info.name} [${info.trap}]`);
      let worstMs = 0;
      let worstMb = 0;
      for (let run = 0; run < REFERENCE_RUNS; run++) {
        const outcome = await runCase(
          problem,
          problem.referenceFile,
          info.index,
          info.timeLimitMs * SLOW_FACTOR,
        );
        if (outcome?.kind !== 'result')
          throw new Error(`the reference did not finish ${info.name}`);
        worstMs = Math.max(worstMs, outcome.result.ms);
        worstMb = Math.max(worstMb, outcome.result.retainedMb ?? 0);
      }
      out(
        `  time limit ${info.timeLimitMs} ms · reference ${worstMs} ms · margin ${ratio(info.timeLimitMs, worstMs)}`,
      );
      if (info.retainedLimitMb !== null) {
        out(
          `  memory limit ${info.retainedLimitMb} MB · reference keeps ${worstMb} MB · margin ${ratio(info.retainedLimitMb, worstMb)}`,
        );
      }
      for (const file of acceptedShapes(problem)) {
        const outcome = await runCase(problem, file, info.index, info.timeLimitMs * SLOW_FACTOR);
        const shown = path.relative(REPO_ROOT, file);
        if (outcome?.kind !== 'result') {
          const deadline = info.timeLimitMs * SLOW_FACTOR;
          out(`  ${shown}: ${outcome ? `unfinished at ${deadline} ms` : 'failed to load'}`);
          continue;
        }
        const r = outcome.result;
        out(`  ${shown}: ${r.status} in ${r.ms} ms · margin ${ratio(info.timeLimitMs, r.ms)}`);
      }
      for (const file of await wrongFor(problem, info.trap)) {
        const deadline = info.timeLimitMs * SLOW_FACTOR;
        const outcome = await runCase(
          problem,
          path.join(problem.mistakesDir, file),
          info.index,
          deadline,
        );
        if (outcome?.kind !== 'result') {
          out(
            `  mistakes/${file}: ${outcome ? `stopped at ${deadline} ms, unfinished` : 'failed to load'} · margin > ${SLOW_FACTOR}×`,
          );
          continue;
        }
        const r = outcome.result;
        const memory =
          info.retainedLimitMb !== null
            ? ` · keeps ${r.retainedMb ?? 0} MB (${ratio(r.retainedMb ?? 0, info.retainedLimitMb)} the limit)`
            : '';
        out(
          `  mistakes/${file}: ${r.status} in ${r.ms} ms (${ratio(r.ms, info.timeLimitMs)} the limit)${memory}`,
        );
      }
    }
  }
}

function timeCommand(args: string[], cwd: string): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (result.status !== 0)
    throw new Error(`${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return performance.now() - started;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/**
 * A throwaway copy of every reference, laid out for `grade --dir`: the bench edits these, never the
 * repo's own files.
 */
function referenceCopies(): { dir: string; files: string[] } {
  const dir = path.join(SCRATCH_DIR, 'bench-grade');
  rmSync(dir, { recursive: true, force: true });
  const files = loadProblems().map((problem) => {
    const file = path.join(dir, problem.dir, 'solution.ts');
    mkdirSync(path.dirname(file), { recursive: true });
    copyFileSync(problem.referenceFile, file);
    return file;
  });
  return { dir, files };
}

function benchGrade(): void {
  const floorDir = path.join(SCRATCH_DIR, 'bench-floor');
  mkdirSync(path.join(floorDir, 'test'), { recursive: true });
  writeFileSync(
    path.join(floorDir, 'test', 'floor.test.ts'),
    "import { expect, test } from 'vitest';\ntest('floor', () => expect(1 + 1).toBe(2));\n",
  );
  const vitest = path.join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const copies = referenceCopies();
  const grade = ['scripts/launch.mjs', 'grade', '--dir', copies.dir];
  const fresh = [...grade, '--fresh'];
  timeCommand(fresh, REPO_ROOT); // builds the cached bundles once, as any second run finds them
  const floors: number[] = [];
  const freshGrades: number[] = [];
  const editedGrades: number[] = [];
  for (let run = 0; run < TIMING_RUNS; run++) {
    floors.push(timeCommand([vitest, 'run', '--dir', floorDir], REPO_ROOT));
    freshGrades.push(timeCommand(fresh, REPO_ROOT));
    // What a learner does between two grades: edit one solution (a different one each run). Code,
    // not a comment: a verdict is kept for the same compiled code. Unique, so that no earlier
    // bench's type check or verdict is found for it.
    appendFileSync(
      copies.files[run % copies.files.length] as string,
      `export const benchEdit${run} = ${Date.now()};\n`,
    );
    editedGrades.push(timeCommand(grade, REPO_ROOT));
  }
  const floor = median(floors);
  const ratio = (ms: number): string => (ms / floor).toFixed(2);
  const freshMs = median(freshGrades);
  const editedMs = median(editedGrades);
  out(`\nvitest run of one trivial test in this repo (the floor): median ${Math.round(floor)} ms`);
  out(
    `npm run grade, one of the ${copies.files.length} references edited since the last grade: ` +
      `median ${Math.round(editedMs)} ms of ${TIMING_RUNS} runs`,
  );
  out(`  grade / floor = ${ratio(editedMs)} (target at most 1.5)`);
  out(
    `npm run grade -- --fresh, every reference judged: median ${Math.round(freshMs)} ms of ${TIMING_RUNS} runs`,
  );
  out(`  grade / floor = ${ratio(freshMs)}`);
  // grade lists such a problem without judging it: its time is not in these figures.
  const unjudged = loadProblems().flatMap((problem) => {
    const unmet = unmetRequirement(problem);
    return unmet ? [`${problem.id} (${unmet.label}: ${unmet.note})`] : [];
  });
  if (unjudged.length > 0)
    out(`  not judged by these grades, so not timed: ${unjudged.join(', ')}`);
}

async function benchWatch(): Promise<void> {
  const copy = copyRepo(mkdtempSync(path.join(tmpdir(), 'window-katas-bench-')));
  const problem = loadProblems()[0] as Problem;
  const stub = path.join(copy, 'problems', problem.dir, 'solution.ts');
  const { child, until } = watchKata(copy, problem.id);
  await until(/Watching/);
  const { readFileSync } = await import('node:fs');
  const sources = [
    readFileSync(problem.referenceFile, 'utf8'),
    readFileSync(
      path.join(problem.mistakesDir, readdirSync(problem.mistakesDir)[0] as string),
      'utf8',
    ),
  ];
  const latencies: number[] = [];
  for (let save = 0; save < WATCH_SAVES; save++) {
    const decided = until(/· checking the follow-ups/);
    const savedAt = performance.now();
    writeFileSync(stub, sources[save % 2] as string);
    await decided;
    latencies.push(performance.now() - savedAt);
    await until(/(Accepted|Wrong Answer|Error|Exceeded)\s+\(cases/);
  }

  // Type errors: save → the Compile Error report (a correct solution but for one mistyped line).
  const typeErrors: number[] = [];
  for (let save = 0; save < TYPE_ERROR_SAVES; save++) {
    const shown = until(/Compile Error\s+\(cases/);
    const savedAt = performance.now();
    writeFileSync(stub, `${sources[0]}\nconst typo${save}: string = ${save};\n`);
    await shown;
    typeErrors.push(performance.now() - savedAt);
  }

  // A solution that loops forever (the stub, every method looping before it throws).
  const shipped = path.join(path.dirname(problem.referenceFile), 'stub.ts');
  const looping = readFileSync(shipped, 'utf8').replaceAll(
    'throw new Error(',
    'for (;;) {}\n    throw new Error(',
  );
  // Loop verdict: save → the verdict, told as soon as the first looping case is stopped.
  let savedAt = performance.now();
  let decided = until(/Time Limit Exceeded · /);
  writeFileSync(stub, looping);
  await decided;
  const loopVerdict = performance.now() - savedAt;
  await until(/(Accepted|Wrong Answer|Error|Exceeded)\s+\(cases/);

  // Cancel: a save while the loop is being judged → the verdict of the newest file.
  let judging = until(/· judging /);
  writeFileSync(stub, `${looping}\n`);
  await judging;
  await new Promise((resolve) => setTimeout(resolve, 300));
  decided = until(/Accepted · /);
  savedAt = performance.now();
  writeFileSync(stub, sources[0] as string);
  await decided;
  const cancel = performance.now() - savedAt;
  await until(/Accepted\s+\(cases/);

  // Quit: q while the loop is being judged → the process has ended (its child killed).
  judging = until(/· judging /);
  writeFileSync(stub, looping);
  await judging;
  await new Promise((resolve) => setTimeout(resolve, 300));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const quitAt = performance.now();
  child.stdin.write('q');
  await exited;
  const quit = performance.now() - quitAt;
  child.kill();
  rmSync(copy, { recursive: true, force: true });
  out(
    `\nkata watch mode, save → verdict on example and core cases (${problem.id}, ${WATCH_SAVES} saves):`,
  );
  out(
    `  median ${Math.round(median(latencies))} ms, worst ${Math.round(Math.max(...latencies))} ms (target within 300 ms)`,
  );
  out(
    `  a solution that loops forever: verdict ${Math.round(loopVerdict)} ms after the save (target within 2500 ms)`,
  );
  out(
    `  a save while judging a loop: the newest file's verdict ${Math.round(cancel)} ms after it (target within 300 ms)`,
  );
  out(`  q while judging a loop: exited ${Math.round(quit)} ms after it (target within 200 ms)`);
  out(
    `  a type error: the Compile Error report ${Math.round(median(typeErrors))} ms after the save (median of ${TYPE_ERROR_SAVES}, worst ${Math.round(Math.max(...typeErrors))} ms; target within 1000 ms)`,
  );
  await benchTypeCheck(problem, sources);
}

/** The type checker alone, in this process: its cold start, then one check per save. */
async function benchTypeCheck(problem: Problem, sources: string[]): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'window-katas-bench-types-'));
  const file = path.join(dir, 'solution.ts');
  const home = path.dirname(problem.stubFile);
  writeFileSync(file, sources[0] as string);
  let started = performance.now();
  await checkTypes(file, { home });
  const cold = performance.now() - started;
  const checks: number[] = [];
  for (let save = 0; save < TYPE_CHECKS; save++) {
    // A save as a learner makes one: the file changed, with a type error every other time.
    const typo = save % 2 === 0 ? `\nconst typo: string = ${save};\n` : `\n// save ${save}\n`;
    writeFileSync(file, `${sources[save % 2]}${typo}`);
    started = performance.now();
    await checkTypes(file, { home });
    checks.push(performance.now() - started);
  }
  rmSync(dir, { recursive: true, force: true });
  out(
    `type checker (LeetCode's options, started from its snapshot): first check ${Math.round(cold)} ms, then a save checked in median ${Math.round(median(checks))} ms, worst ${Math.round(Math.max(...checks))} ms (${TYPE_CHECKS} saves)`,
  );
}

const SECTIONS = ['limits', 'grade', 'watch', 'redis'];

async function bench(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    command: 'bench',
    args: '[limits|grade|watch|redis]',
    maxArgs: 1,
    summary: "Measures the judge's limits and speed on this machine; it only reads the repo.",
    options: BENCH_OPTIONS,
    notes: ['Without a section, all four: limits, grade, watch and redis.'],
    example: 'npm run bench -- --load --rounds 2',
  });
  // 4. `--load`: verdicts under a saturated CPU, many grades at once (scripts/lib/bench-load.ts).
  if (values.load) return loadMain(args);
  const stray = (['rounds', 'concurrency', 'compat', 'accepted', 'burners'] as const).find(
    (o) => values[o] !== undefined,
  );
  if (stray) throw new UsageError(`--${stray} goes with --load`);
  const only = positionals[0];
  if (only !== undefined && !SECTIONS.includes(only)) {
    throw new UsageError(`no section "${shownArg(only)}": limits, grade, watch or redis`);
  }
  if (values.only !== undefined && only !== 'limits') {
    throw new UsageError('--only goes with --load or with the limits section');
  }
  const problems = values.only === undefined ? undefined : new Set(values.only.split(','));
  try {
    if (!only || only === 'limits') await benchLimits(problems);
  } finally {
    await redis.close();
  }
  if (!only || only === 'grade') benchGrade();
  if (!only || only === 'watch') await benchWatch();
  if (!only || only === 'redis') {
    await benchRedis(out);
    await benchRedisWatch(out);
  }
  return 0;
}

/** Help and usage errors are written as every command writes them; the figures go through `out`. */
const io: IO = {
  out: (text) => out(text),
  err: (text) => process.stderr.write(`${text}\n`),
  interactive: false,
  style: makeStyle(false),
};

/**
 * `npm run bench -- ARGS`, or one grade of a --load run (bench-load.ts starts it, with arguments of
 * its own).
 */
export function benchMain(args: string[]): Promise<number> {
  return args[0] === WORKER_FLAG ? loadMain(args) : runCommand(() => bench(args), io);
}
