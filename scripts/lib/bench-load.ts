// `npm run bench -- --load [--rounds N] [--concurrency C] [--only <problem,...>] [--compat]
// [--accepted] [--burners B]`: do verdicts hold on a machine that has no CPU to spare? Background
// burners (B, one per core unless told) keep the cores busy for the whole run while every reference
// and every known-wrong implementation (with --compat, also test/compat's files that must pass in
// full; with --accepted, only the files that must be accepted) is graded N times, C grades at once,
// each in an OS process of its own (a judge, with its own child), as C learners grading at once
// would. A grade whose verdict is not the one its file is known to get is a flip; any flip fails the
// run. A grade of a problem that requires Redis starts a redis-server of its own, as a learner's
// grade does (or borrows REDIS_URL); without Redis such problems are skipped, and said so, never
// counted as flips. Like the rest of the bench it only reads the repo.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuTimeMs } from '../../harness/judge/child-session.ts';
import { readExpectation } from '../../harness/judge/expectation.ts';
import { judge } from '../../harness/judge/judge.ts';
import type { CaseResult, Verdict } from '../../harness/judge/outcome.ts';
import { findProblem, loadProblems, type Problem } from '../../harness/judge/problems.ts';
import { unmetRequirement, type Unmet } from '../../harness/judge/requirements.ts';
import { REPO_ROOT } from '../../harness/paths.ts';
import { redisAvailability } from '../../harness/redis/availability.ts';
import { RedisStartError } from '../../harness/redis/server.ts';
import { CommandRedis, redisStartLine } from '../../harness/redis/session.ts';
import { parse, type OptionSpec } from './cli.ts';
import { compatFiles } from './compat-corpus.ts';
import { mapConcurrent } from './pool.ts';

/** Internal: `bench --load-worker <problem-dir> <file>` grades one file and prints its report. */
export const WORKER_FLAG = '--load-worker';
const RESULT_PREFIX = 'bench-load-result ';
/** What a grade prints instead of a report when its Redis could not be started. */
const NO_REDIS_PREFIX = 'bench-load-no-redis ';
/** A grade still running after this long is stopped and counted as a flip. */
const GRADE_TIMEOUT_MS = 10 * 60_000;

export interface LoadOptions {
  rounds: number;
  concurrency: number;
  /** Problem names given with --only; empty for every problem. */
  only: string[];
  /** Also test/compat's honest alternatives that must pass in full (see compatAlternatives). */
  compat: boolean;
  /** Only the files that must be accepted: no known-wrong file. */
  accepted: boolean;
  /** CPU burners beside the grades; undefined: one per core. */
  burners?: number;
}

const positive = (flag: string, text: string | undefined, fallback: number): number => {
  if (text === undefined) return fallback;
  if (!/^[1-9]\d{0,5}$/.test(text)) throw new Error(`--${flag} must be a positive integer`);
  return Number(text);
};

/** `npm run bench`'s options, --load's among them. */
export const BENCH_OPTIONS = {
  load: {
    type: 'boolean',
    help: 'grade every file many times on a busy CPU instead',
  },
  rounds: { type: 'string', value: 'N', help: 'with --load: grades of each file (default 20)' },
  concurrency: { type: 'string', value: 'C', help: 'with --load: grades at once (default 8)' },
  only: {
    type: 'string',
    value: 'LIST',
    help: 'with --load or limits: only these problems, e.g. 933,token-bucket',
  },
  compat: {
    type: 'boolean',
    help: "with --load: also test/compat's files that must pass in full",
  },
  accepted: {
    type: 'boolean',
    help: 'with --load: only the files that must be accepted (no known-wrong file)',
  },
  burners: {
    type: 'string',
    value: 'B',
    help: 'with --load: CPU burners beside the grades (default one per core; 0: none)',
  },
} satisfies Record<string, OptionSpec>;

/** Reads `--load [--rounds N] [--concurrency C] [--only a,b] [--compat] [--accepted] [--burners B]`; throws on anything else. */
export function parseLoadArgs(argv: string[]): LoadOptions {
  const { values } = parse(argv, {
    command: 'bench',
    maxArgs: 0,
    summary: 'Grades every file many times on a busy CPU.',
    example: 'npm run bench -- --load --rounds 2',
    options: BENCH_OPTIONS,
  });
  const only = (values.only ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (values.only !== undefined && only.length === 0) throw new Error('--only names no problem');
  if (values.burners !== undefined && !/^\d{1,3}$/.test(values.burners)) {
    throw new Error('--burners must be a whole number (0 for none)');
  }
  return {
    rounds: positive('rounds', values.rounds, 20),
    concurrency: positive('concurrency', values.concurrency, 8),
    only,
    compat: values.compat ?? false,
    accepted: values.accepted ?? false,
    ...(values.burners === undefined ? {} : { burners: Number(values.burners) }),
  };
}

/** What a file must get: the reference (trap null) every case passed; a wrong one its own verdict and trap. */
export interface Expected {
  verdict: Verdict;
  trap: string | null;
}

/** A case as a grade reports it, with the wall time between it and the one before (compile and load for the first). */
export type GradedCase = Pick<CaseResult, 'name' | 'trap' | 'status' | 'ms' | 'message'> & {
  wallMs: number;
};

export interface GradeReport {
  verdict: Verdict;
  /** Wall time of the whole grade. */
  ms: number;
  cases: GradedCase[];
  /** Wall time the grade's Redis took to start (or be prepared on REDIS_URL), when it has one. */
  redisStartMs?: number;
}

export interface Flip {
  got: string;
  /** What to look at: the cases that did not pass, and for a wrong file every case of its trap. */
  cases: GradedCase[];
}

export const describeExpected = (expected: Expected): string =>
  expected.trap === null
    ? 'accepted, every case passed'
    : `${expected.verdict}, caught by ${expected.trap}`;

/** Why this grade is a flip, or undefined when it gave what its file is known to get. */
export function flipOf(expected: Expected, report: GradeReport): Flip | undefined {
  const failing = (c: GradedCase): boolean => c.status !== 'passed';
  if (expected.trap === null) {
    const cases = report.cases.filter(failing);
    if (report.verdict === 'accepted' && cases.length === 0) return undefined;
    return { got: `${report.verdict}, ${cases.length} case(s) not passed`, cases };
  }
  const trap = expected.trap;
  const caught = report.cases.some((c) => c.trap === trap && failing(c));
  if (report.verdict === expected.verdict && caught) return undefined;
  return {
    got: `${report.verdict}, ${trap} ${caught ? 'caught' : 'not caught'}`,
    cases: report.cases.filter((c) => c.trap === trap || failing(c)),
  };
}

/**
 * A wrong file "caught" only because its trap's cases were skipped (the problem's CPU budget ran out
 * before them): not a flip, as the judge's own tests count it, but a catch that proves nothing.
 */
export const caughtBySkipOnly = (expected: Expected, report: GradeReport): boolean => {
  const trapCases = report.cases.filter((c) => c.trap === expected.trap);
  return (
    expected.trap !== null &&
    trapCases.some((c) => c.status === 'skipped') &&
    trapCases.every((c) => c.status === 'passed' || c.status === 'skipped')
  );
};

/** The judge's wall backstop for a CPU deadline (WALL_FACTOR and WALL_EXTRA_MS in child-session.ts). */
export const wallBackstopMs = (cpuDeadlineMs: number): number => cpuDeadlineMs * 10 + 2000;

/**
 * How close a case stopped for time came to being stopped by the wall backstop rather than by its
 * CPU deadline: its wall time over the backstop (for such a case, ms is its deadline). Past 1 the
 * backstop fired first; the verdict is the same, but a case that needs CPU time would be cut short.
 */
export const backstopShare = (c: GradedCase): number | undefined =>
  c.status === 'time-limit-exceeded' && c.ms > 0 ? c.wallMs / wallBackstopMs(c.ms) : undefined;

export const formatCase = (c: GradedCase): string =>
  `${c.name} [${c.trap ?? 'no trap'}]: ${c.status}, ${c.ms} ms CPU, ${c.wallMs} ms wall` +
  (c.message ? ` (${c.message.split('\n')[0]})` : '');

export interface Solution {
  problem: Problem;
  file: string;
  /** `solution.ts` for the reference, `compat/<file>` for a corpus alternative, else `mistakes/<file>`. */
  label: string;
  expected: Expected;
}

export interface Tally {
  problem: string;
  solutions: number;
  grades: number;
  flips: number;
  /** Set for a problem not graded at all: why (`needs Redis`). */
  skipped?: string;
}

export function formatTable(rows: Tally[]): string[] {
  const width = Math.max(7, ...rows.map((r) => r.problem.length));
  const line = (cells: (string | number)[]): string =>
    `${String(cells[0]).padEnd(width)} ${cells
      .slice(1)
      .map((cell) => String(cell).padStart(9))
      .join(' ')}`;
  return [
    line(['problem', 'solutions', 'grades', 'flips']),
    ...rows.map((r) =>
      r.skipped === undefined
        ? line([r.problem, r.solutions, r.grades, r.flips])
        : `${r.problem.padEnd(width)} ${String(r.solutions).padStart(9)}   skipped: ${r.skipped}`,
    ),
  ];
}

/**
 * The loud line for problems this machine cannot grade: they are not judged, so a run without
 * Redis must not look like a run that proved the Redis katas.
 */
export function skippedLine(skipped: { problem: Problem; unmet: Unmet }[]): string[] {
  const byNote = new Map<string, string[]>();
  for (const { problem, unmet } of skipped) {
    const note = `${unmet.label}: ${unmet.note}`;
    byNote.set(note, [...(byNote.get(note) ?? []), problem.dir]);
  }
  return [...byNote].map(
    ([note, dirs]) =>
      `*** SKIPPED, not graded and not counted as flips: ${dirs.join(', ')} (${note}) ***`,
  );
}

/**
 * test/compat's files of a problem that must pass in full: `// expect: accepted` with
 * `// expect-follow-ups: passed` (see test/compat/README.md), such as the honest alternatives
 * to a Redis kata's reference.
 */
export const compatAlternatives = (dir: string, root?: string): string[] =>
  compatFiles(dir, (e) => e.verdict === 'accepted' && e.followUps, root);

/** Every problem's reference and known-wrong implementations (as asked), with what each must get. */
async function solutionsOf(
  problems: Problem[],
  { compat, accepted }: Pick<LoadOptions, 'compat' | 'accepted'>,
): Promise<Solution[]> {
  const all: Solution[] = [];
  const inFull = { verdict: 'accepted', trap: null } as const;
  for (const problem of problems) {
    all.push({ problem, file: problem.referenceFile, label: 'solution.ts', expected: inFull });
    if (compat) {
      for (const file of compatAlternatives(problem.dir)) {
        all.push({ problem, file, label: `compat/${path.basename(file)}`, expected: inFull });
      }
    }
    if (accepted) continue;
    for (const name of readdirSync(problem.mistakesDir)
      .filter((f) => f.endsWith('.ts'))
      .sort()) {
      const file = path.join(problem.mistakesDir, name);
      all.push({ problem, file, label: `mistakes/${name}`, expected: await readExpectation(file) });
    }
  }
  return all;
}

/**
 * A burner spins one core until killed, and stops by itself once its parent is gone (it then has
 * another parent pid), so that a bench that crashes leaves nothing spinning.
 */
const BURNER =
  'const parent = process.ppid; for (let i = 1; ; i++) if (i % 2e7 === 0 && process.ppid !== parent) process.exit(0);';

/**
 * The command that grades one file. Run from its bundle (scripts/launch.mjs), this module is part of
 * that bundle: each grade runs it again, so every grade of the run uses the same judge code even if
 * harness/ changes meanwhile.
 */
function workerCommand(): string[] {
  const self = fileURLToPath(import.meta.url);
  return self.endsWith('.mjs')
    ? [self, WORKER_FLAG]
    : [path.join(REPO_ROOT, 'scripts', 'launch.mjs'), 'bench', WORKER_FLAG];
}

/** Grades one file in a process of its own; a string says why no report came back. */
function gradeInProcess(
  solution: Solution,
  inFlight: Set<ChildProcess>,
): Promise<GradeReport | string> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [...workerCommand(), solution.problem.dir, solution.file],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
    );
    inFlight.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on(
      'data',
      (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)),
    );
    const timer = setTimeout(() => child.kill('SIGKILL'), GRADE_TIMEOUT_MS);
    child.on('error', (error) => resolve(`could not start: ${error.message}`));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      inFlight.delete(child);
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
      if (line) return resolve(JSON.parse(line.slice(RESULT_PREFIX.length)) as GradeReport);
      const noRedis = stdout.split('\n').find((l) => l.startsWith(NO_REDIS_PREFIX));
      if (noRedis)
        return resolve(`its Redis could not be started: ${noRedis.slice(NO_REDIS_PREFIX.length)}`);
      const tail = stderr.trim().split('\n').slice(-3).join(' | ');
      resolve(`the grade ended (${signal ?? `exit code ${code}`}) without a report: ${tail}`);
    });
  });
}

/** `bench --load-worker <problem-dir> <file>`: judges one file as `grade` would and prints the report. */
async function gradeOne([dir, file]: string[]): Promise<number> {
  const problem = loadProblems().find((p) => p.dir === dir);
  if (!problem || !file) throw new Error(`${WORKER_FLAG} needs a problem folder and a file`);
  // Ends with the bench, however the bench ends; the judge's own child follows this process.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.exit(1);
  }, 250).unref();
  let last = performance.now();
  const walls: number[] = [];
  // A Redis of this grade's own, as `npm run grade` starts one per process: its start is part of
  // what a learner waits for, and of the load. Nothing is started for a problem without Redis.
  const redis = new CommandRedis();
  let redisStartMs: number | undefined;
  let report;
  try {
    report = await judge({
      problem,
      solutionFile: file,
      redis: async () => {
        const asked = performance.now();
        const options = await redis.optionsFor(problem);
        if (redis.started) redisStartMs = Math.round(performance.now() - asked);
        // The wall time of the first case counts from here, as for a problem without Redis.
        last = performance.now();
        return options;
      },
      onCase: () => {
        walls.push(Math.round(performance.now() - last));
        last = performance.now();
      },
    });
  } catch (error) {
    if (!(error instanceof RedisStartError)) throw error;
    process.stdout.write(`${NO_REDIS_PREFIX}${redisStartLine(error)}\n`);
    return 1;
  } finally {
    await redis.close();
  }
  const graded: GradeReport = {
    ...(redisStartMs === undefined ? {} : { redisStartMs }),
    verdict: report.verdict,
    ms: report.ms,
    cases: report.cases.map((c, i) => ({
      name: c.name,
      trap: c.trap,
      status: c.status,
      ms: c.ms,
      message: c.message,
      wallMs: walls[i] ?? 0,
    })),
  };
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(graded)}\n`);
  return 0;
}

/** Busy and total CPU time of the whole machine so far, in clock ticks (from /proc/stat). */
function machineTicks(): { busy: number; total: number } | undefined {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const total = fields.reduce((sum, n) => sum + n, 0);
    // idle and iowait are the 4th and 5th fields
    return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
  } catch {
    return undefined;
  }
}

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

/** The problems named with --only, each once, or every problem. */
function chooseProblems(only: string[]): Problem[] {
  const all = loadProblems();
  if (only.length === 0) return all;
  const chosen = only.map((name) => {
    const found = findProblem(all, name);
    if (!found)
      throw new Error(`unknown problem "${name}" (known: ${all.map((p) => p.id).join(', ')})`);
    return found;
  });
  return [...new Set(chosen)];
}

async function benchLoad(options: LoadOptions, chosen: Problem[]): Promise<number> {
  // What this machine cannot grade (a Redis kata without Redis) is said first, and again last.
  const skipped = chosen.flatMap((problem) => {
    const unmet = unmetRequirement(problem);
    return unmet ? [{ problem, unmet }] : [];
  });
  const problems = chosen.filter((problem) => !skipped.some((s) => s.problem === problem));
  for (const line of skippedLine(skipped)) out(line);
  if (problems.length === 0) {
    out('Nothing to grade: every problem chosen was skipped.');
    return 2;
  }
  const solutions = await solutionsOf(problems, options);
  const jobs = Array.from({ length: options.rounds }, (_, round) =>
    solutions.map((solution) => ({ solution, round: round + 1 })),
  ).flat();
  const cores = availableParallelism();
  const burnerCount = options.burners ?? cores;
  out(
    `Grading ${solutions.length} files × ${options.rounds} rounds = ${jobs.length} grades, ` +
      `${options.concurrency} at once, beside ${burnerCount} CPU burners on ${cores} cores`,
  );

  // Everything started here is killed on the way out: at the end, on Ctrl-C, or when the bench throws.
  const burners = Array.from({ length: burnerCount }, () =>
    spawn(process.execPath, ['-e', BURNER], { stdio: 'ignore' }),
  );
  const inFlight = new Set<ChildProcess>();
  const stopAll = (): void => {
    for (const child of [...burners, ...inFlight]) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    stopAll();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('exit', stopAll);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const started = performance.now();
  const ticksBefore = machineTicks();
  const seconds = (): string => ((performance.now() - started) / 1000).toFixed(0);
  const flips: { job: (typeof jobs)[number]; flip: Flip; ms: number }[] = [];
  /** Grades of each file caught only by a skipped case, by label. */
  const bySkip = new Map<string, number>();
  /** Wall times the grades' Redis took to start (each grade of a Redis problem starts one). */
  const redisStarts: number[] = [];
  /** The case stopped for time that came closest to the wall backstop. */
  let closest: { job: (typeof jobs)[number]; c: GradedCase; share: number } | undefined;
  let done = 0;
  let burnerCpuMs: number;
  try {
    await mapConcurrent(jobs, options.concurrency, async (job) => {
      const report = await gradeInProcess(job.solution, inFlight);
      const flip =
        typeof report === 'string'
          ? { got: `no report: ${report}`, cases: [] }
          : flipOf(job.solution.expected, report);
      if (typeof report !== 'string' && report.redisStartMs !== undefined) {
        redisStarts.push(report.redisStartMs);
      }
      if (typeof report !== 'string' && caughtBySkipOnly(job.solution.expected, report)) {
        const key = `${job.solution.problem.dir}/${job.solution.label}`;
        bySkip.set(key, (bySkip.get(key) ?? 0) + 1);
      }
      if (flip) {
        flips.push({ job, flip, ms: typeof report === 'string' ? 0 : report.ms });
        out(
          `  flip: ${job.solution.problem.id} ${job.solution.label} round ${job.round}: ${flip.got}`,
        );
      }
      for (const c of typeof report === 'string' ? [] : report.cases) {
        const share = backstopShare(c);
        if (share !== undefined && share > (closest?.share ?? 0)) closest = { job, c, share };
      }
      done++;
      if (done % solutions.length === 0 || done === jobs.length) {
        out(`  ${done}/${jobs.length} grades · ${flips.length} flips · ${seconds()} s`);
      }
    });
    burnerCpuMs = burners.reduce((sum, b) => sum + (b.pid ? (cpuTimeMs(b.pid) ?? 0) : 0), 0);
  } finally {
    stopAll();
    process.off('exit', stopAll);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const wallMs = performance.now() - started;
  const ticksAfter = machineTicks();
  const busy =
    ticksBefore && ticksAfter
      ? `${((100 * (ticksAfter.busy - ticksBefore.busy)) / (ticksAfter.total - ticksBefore.total)).toFixed(0)}%`
      : 'unknown';

  out();
  out(
    formatTable(
      chosen.map((problem) => {
        const unmet = skipped.find((s) => s.problem === problem)?.unmet;
        if (unmet) {
          const files = existsSync(problem.mistakesDir)
            ? readdirSync(problem.mistakesDir).filter((f) => f.endsWith('.ts')).length
            : 0;
          return {
            problem: problem.dir,
            solutions: 1 + files,
            grades: 0,
            flips: 0,
            skipped: unmet.label,
          };
        }
        const mine = solutions.filter((s) => s.problem === problem).length;
        return {
          problem: problem.dir,
          solutions: mine,
          grades: mine * options.rounds,
          flips: flips.filter((f) => f.job.solution.problem === problem).length,
        };
      }),
    ).join('\n'),
  );
  if (redisStarts.length > 0) {
    const sorted = [...redisStarts].sort((a, b) => a - b);
    // On REDIS_URL a grade starts no server: it logs in, and makes its user and prefix there.
    const availability = redisAvailability();
    const how =
      availability.available && availability.mode === 'url'
        ? 'prepared its own user and keys on REDIS_URL'
        : 'started a redis-server of its own';
    out(
      `\nRedis: each of the ${sorted.length} grades of a Redis problem ${how}, in median ` +
        `${sorted[Math.floor(sorted.length / 2)]} ms wall (worst ${sorted.at(-1)} ms)`,
    );
  }
  for (const [key, count] of bySkip) {
    out(`\nnot a flip, but caught only by a case skipped for the CPU budget: ${key} (${count}×)`);
  }
  for (const { job, flip, ms } of flips) {
    const { solution } = job;
    out(
      `\nflip: ${solution.problem.dir}/${solution.label}, round ${job.round} (grade took ${ms} ms wall)`,
    );
    out(`  expected ${describeExpected(solution.expected)}; got ${flip.got}`);
    for (const c of flip.cases) out(`    ${formatCase(c)}`);
  }
  if (closest) {
    const { job, c, share } = closest;
    out(
      `\nclosest to the wall backstop: ${job.solution.problem.id} ${job.solution.label}, ${c.name}: ` +
        `${c.wallMs} ms wall for a CPU deadline of ${c.ms} ms (${(share * 100).toFixed(0)}% of the ` +
        `${wallBackstopMs(c.ms)} ms backstop)`,
    );
  }
  out(
    `\n${jobs.length} grades · ${flips.length} flips · wall ${(wallMs / 1000).toFixed(1)} s · ` +
      `CPU busy ${busy} of the time (burners took ${(burnerCpuMs / 1000).toFixed(0)} s of it) · ` +
      `load average ${loadavg()[0]?.toFixed(1)} at the end`,
  );
  for (const line of skippedLine(skipped)) out(line);
  return flips.length > 0 ? 1 : 0;
}

/** Runs `bench --load ...` or one of its grades; returns the exit code. */
export async function loadMain(args: string[]): Promise<number> {
  if (args[0] === WORKER_FLAG) return gradeOne(args.slice(1));
  let options: LoadOptions;
  let problems: Problem[];
  try {
    options = parseLoadArgs(args);
    problems = chooseProblems(options.only);
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return 2;
  }
  return benchLoad(options, problems);
}
