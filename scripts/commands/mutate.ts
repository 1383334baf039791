// `npm run mutate [problem...]`: proves the hidden suites by mutation. Every mutant of a problem's
// reference (scripts/lib/mutants.ts) is written to a file of its own, in a temporary folder (the
// reference itself is never touched: the suites load it as their oracle), and judged as a
// learner's solution. A mutant the judge accepts with every follow-up passed has survived: either
// it is listed in solutions/<dir>/equivalent-mutants.json with the reason no suite can tell it from
// the reference, or the suite has a gap and the command fails.
// A problem that requires Redis has its mutants judged on one Redis for the whole run (each
// judgement with keys of its own); without Redis it is not mutated, and the table says why.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { judge, releaseSlot, type SessionSlot } from '../../harness/judge/judge.ts';
import type { CaseResult, ProblemReport, Verdict } from '../../harness/judge/outcome.ts';
import { loadProblems, type Problem } from '../../harness/judge/problems.ts';
import { unmetRequirement } from '../../harness/judge/requirements.ts';
import { PROBLEMS_DIR } from '../../harness/paths.ts';
import { RedisStartError } from '../../harness/redis/server.ts';
import { CommandRedis, redisStartLine } from '../../harness/redis/session.ts';
import { VERDICT_LABEL } from '../../harness/terminal/report.ts';
import { fitCell, WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { parse, resolveProblems, shownArg, USAGE_EXIT, UsageError, type IO } from '../lib/cli.ts';
import {
  describeEntry,
  entryFor,
  EquivalentsError,
  matchEquivalents,
  parseEquivalents,
  type EquivalentEntry,
} from '../lib/equivalent-mutants.ts';
import { diffLines, fateOf, generateMutants, type Fate, type Mutant } from '../lib/mutants.ts';
import { mapConcurrent } from '../lib/pool.ts';

export const EQUIVALENTS_FILE = 'equivalent-mutants.json';

/** What judging one mutant came to. */
interface Outcome {
  fate: Fate;
  verdict: Verdict;
  /** The first follow-up it failed (its trap, or its name), when it was accepted. */
  followUp?: string;
  /** That follow-up failed on memory: the one measurement a busy machine can tip. */
  onMemory?: boolean;
  /** Set when a second judgement disagreed with the first: what the first said. */
  flaky?: string;
  /** Wall time the judgement took (both, when judged twice). */
  ms: number;
}

interface ProblemRun {
  problem: Problem;
  source: string;
  /** Every mutant of the reference; `mutants` are those judged (all, unless --mutant chose). */
  all: Mutant[];
  mutants: Mutant[];
  ignored: number;
  outcomes: Map<number, Outcome>;
  equivalent: Map<number, EquivalentEntry>;
  /** Survivors that no entry explains: each a gap in the suite. */
  survivors: Mutant[];
  /** Entries that match no mutant any more. */
  stale: EquivalentEntry[];
  /** Entries whose mutant was killed: not equivalent after all. */
  killedListed: { mutant: Mutant; entry: EquivalentEntry; outcome: Outcome }[];
  /** Set when the reference itself is not accepted in full: nothing else is judged. */
  broken?: string;
  /** Set when the problem could not be judged here (no Redis): why. Neither passed nor failed. */
  unjudged?: string;
  /** The reference failed once and passed when judged again. */
  flakyReference?: string;
  ms: number;
}

/** How one mutant did, in a few words. */
function outcomeText(outcome: Outcome): string {
  switch (outcome.fate) {
    case 'verdict':
      return `killed: ${VERDICT_LABEL[outcome.verdict]}`;
    case 'compile':
      return 'killed: Compile Error';
    case 'follow-up':
      return `killed by follow-up ${outcome.followUp}`;
    case 'survived':
      return 'survived';
  }
}

/** Verdicts that kill the child process anyway: nothing is saved by letting the judgement go on. */
const STOP_AT: ReadonlySet<Verdict> = new Set(['time-limit-exceeded', 'memory-limit-exceeded']);

/**
 * Judges one file as far as it takes to know its fate: a verdict other than Accepted skips the
 * follow-ups (and stops at once if the case that decided it took its child process down), and the
 * first follow-up failed skips the rest.
 */
async function judgeOnce(
  problem: Problem,
  file: string,
  slot: SessionSlot,
  redis: CommandRedis,
): Promise<Outcome> {
  const started = performance.now();
  const controller = new AbortController();
  let decided: Verdict | undefined;
  let failed: CaseResult | undefined;
  const report: ProblemReport = await judge({
    problem,
    solutionFile: file,
    slot,
    // Keys of its own for every judgement, on the run's one server (nothing without Redis).
    redis: () => redis.optionsFor(problem),
    signal: controller.signal,
    onDecided: (verdict) => {
      decided = verdict;
      if (STOP_AT.has(verdict)) controller.abort();
    },
    onCase: (result) => {
      const ran = result.status !== 'passed' && result.status !== 'skipped';
      if (result.tier === 'follow-up' && ran) failed ??= result;
    },
    followUps: () => decided === 'accepted' && failed === undefined,
  });
  // A compile error, or a file that fails to load, is decided without onDecided. Type errors
  // count whenever the checker finds them, also after the cases decided (the report then says
  // compile error, as grade's would): else the count would follow the checker's speed.
  const verdict = report.verdict === 'compile-error' ? report.verdict : (decided ?? report.verdict);
  const fate = fateOf({ verdict, followUps: report.followUps });
  return {
    fate,
    verdict,
    ...(fate === 'follow-up'
      ? {
          // Follow-ups skipped with none failed: the problem's budget of CPU time ran out.
          followUp: failed ? (failed.trap ?? failed.name) : '(CPU budget spent)',
          onMemory: failed?.status === 'memory-limit-exceeded',
        }
      : {}),
    ms: performance.now() - started,
  };
}

/**
 * Judges one file, and once more when a follow-up failed on memory (or when the file is the
 * reference and anything failed): a measurement near its limit can tip on a busy machine, and a
 * mutant must not pass for killed, nor the reference for broken, on one reading. The second
 * judgement decides; a disagreement is reported as flaky.
 */
async function judgeFile(
  problem: Problem,
  file: string,
  slot: SessionSlot,
  redis: CommandRedis,
  reference = false,
): Promise<Outcome> {
  const first = await judgeOnce(problem, file, slot, redis);
  const doubt = reference
    ? first.fate !== 'survived'
    : first.fate === 'follow-up' && first.onMemory;
  if (!doubt) return first;
  const second = await judgeOnce(problem, file, slot, redis);
  const ms = first.ms + second.ms;
  if (second.fate === first.fate) return { ...second, ms };
  return { ...second, flaky: outcomeText(first), ms };
}

function loadEquivalents(problem: Problem): EquivalentEntry[] {
  const file = path.join(path.dirname(problem.referenceFile), EQUIVALENTS_FILE);
  if (!existsSync(file)) return [];
  try {
    return parseEquivalents(
      readFileSync(file, 'utf8'),
      `solutions/${problem.dir}/${EQUIVALENTS_FILE}`,
    );
  } catch (error) {
    if (error instanceof EquivalentsError) throw new UsageError(error.message);
    throw error;
  }
}

async function mutateProblem(
  problem: Problem,
  scratch: string,
  slots: SessionSlot[],
  redis: CommandRedis,
  wanted: number[] | undefined,
  io: IO,
): Promise<ProblemRun> {
  const started = performance.now();
  const source = readFileSync(problem.referenceFile, 'utf8');
  const generated = await generateMutants(source, problem.referenceFile);
  const entries = loadEquivalents(problem);
  const { byMutant, stale } = matchEquivalents(entries, generated.mutants);
  const unknown = wanted?.filter((id) => !generated.mutants.some((m) => m.id === id)) ?? [];
  if (unknown.length > 0) {
    throw new UsageError(
      `${problem.id} has mutants 1 to ${generated.mutants.length}: no mutant ${unknown[0]}`,
    );
  }
  const mutants = wanted
    ? generated.mutants.filter((m) => wanted.includes(m.id))
    : generated.mutants;
  const run: ProblemRun = {
    problem,
    source,
    all: generated.mutants,
    mutants,
    ignored: generated.ignored,
    outcomes: new Map(),
    equivalent: new Map(),
    survivors: [],
    // Judging a few mutants says nothing of the entries for the others.
    stale: wanted ? [] : stale,
    killedListed: [],
    ms: 0,
  };

  // Without Redis, nothing of a Redis problem can be judged: said in its row, and not a failure.
  const unmet = unmetRequirement(problem);
  if (unmet) {
    run.unjudged = `not judged: ${unmet.label} (${unmet.note})`;
    return run;
  }
  // The reference first: a suite that rejects it would kill every mutant and prove nothing.
  let baseline: Outcome;
  try {
    baseline = await judgeFile(
      problem,
      problem.referenceFile,
      slots[0] as SessionSlot,
      redis,
      true,
    );
  } catch (error) {
    if (!(error instanceof RedisStartError)) throw error;
    run.unjudged = `not judged: Redis could not be started (${redisStartLine(error)})`;
    return run;
  }
  if (baseline.flaky) run.flakyReference = baseline.flaky;
  if (baseline.fate !== 'survived') {
    run.broken = `the reference itself is not accepted in full (${outcomeText(baseline).replace('killed', 'rejected')})`;
    run.ms = performance.now() - started;
    return run;
  }

  // The same depth below a folder that links to problems/ as the reference has below the repo:
  // its `import type … from '../../problems/…'` still resolves, for the type checker.
  const dir = path.join(scratch, 'solutions', problem.dir);
  mkdirSync(dir, { recursive: true });
  const width = String(generated.mutants.length).length;
  const fileOf = (mutant: Mutant): string =>
    path.join(dir, `mutant-${String(mutant.id).padStart(width, '0')}.ts`);
  for (const mutant of mutants) writeFileSync(fileOf(mutant), mutant.code);

  let done = 0;
  const progress = (): void =>
    io.transient?.(`mutate ${problem.id}: ${done}/${mutants.length} mutants judged`);
  progress();
  await mapConcurrent(mutants, slots.length, async (mutant, lane) => {
    const outcome = await judgeFile(problem, fileOf(mutant), slots[lane] as SessionSlot, redis);
    run.outcomes.set(mutant.id, outcome);
    done += 1;
    progress();
  });

  for (const mutant of mutants) {
    const outcome = run.outcomes.get(mutant.id) as Outcome;
    const entry = byMutant.get(mutant.id);
    if (outcome.fate === 'survived') {
      if (entry) run.equivalent.set(mutant.id, entry);
      else run.survivors.push(mutant);
    } else if (entry) {
      run.killedListed.push({ mutant, entry, outcome });
    }
  }
  run.ms = performance.now() - started;
  return run;
}

/** Problem, mutants, killed by the verdict, by follow-ups only, by compile, equivalent, survived, time. */
const WIDTHS = [12, 7, 7, 5, 7, 5, 8, 7];

function tableRow(cells: string[], right: boolean[]): string {
  return cells
    .map((cell, i) => {
      const width = WIDTHS[i] as number;
      return right[i] ? cell.padStart(width) : fitCell(cell, width);
    })
    .join(' ')
    .trimEnd();
}

function count(run: ProblemRun, fate: Fate): number {
  let n = 0;
  for (const outcome of run.outcomes.values()) if (outcome.fate === fate) n += 1;
  return n;
}

const RIGHT = [false, true, true, true, true, true, true, true];

const HEADER = ['problem', 'mutants', 'verdict', 'f-ups', 'compile', 'equiv', 'survived', 'time'];

/** A problem's row of the table, printed as soon as the problem is done. */
function row(run: ProblemRun, io: IO): string {
  if (run.broken)
    return `${fitCell(run.problem.id, WIDTHS[0] as number)} ${io.style.red(run.broken)}`;
  if (run.unjudged) {
    const line = `${fitCell(run.problem.id, WIDTHS[0] as number)} ${run.unjudged}`;
    return io.style.yellow(wrap(line, WIDTH, ' '.repeat((WIDTHS[0] as number) + 1)));
  }
  const line = tableRow(
    [
      run.problem.id,
      String(run.mutants.length),
      String(count(run, 'verdict')),
      String(count(run, 'follow-up')),
      String(count(run, 'compile')),
      String(run.equivalent.size),
      String(run.survivors.length),
      `${(run.ms / 1000).toFixed(1)}s`,
    ],
    RIGHT,
  );
  return run.survivors.length > 0 ? io.style.red(line) : line;
}

/** A mutant as a heading: where it is and what made it. */
function heading(run: ProblemRun, mutant: Mutant): string {
  return `${run.problem.id} #${mutant.id} · solution.ts:${mutant.line}:${mutant.column} · ${mutant.mutator}`;
}

/** The changed lines, before and after, their common indentation removed. */
function diff(run: ProblemRun, mutant: Mutant, io: IO): string[] {
  const { before, after } = diffLines(run.source, mutant);
  const indent = Math.min(
    ...[...before, ...after].filter((l) => l.trim()).map((l) => /^\s*/.exec(l)?.[0].length ?? 0),
  );
  return [
    ...before.map((l) => io.style.red(`    - ${l.slice(indent)}`)),
    ...after.map((l) => io.style.green(`    + ${l.slice(indent)}`)),
  ];
}

/** `problems`: where to find them (the tests point it at a copy of a reference). */
export async function mutate(
  argv: string[],
  io: IO,
  problems: Problem[] = loadProblems(),
): Promise<number> {
  const { values, positionals } = parse(argv, {
    command: 'mutate',
    args: '[problem...]',
    maxArgs: Infinity,
    summary:
      "Mutates each problem's reference solution and judges every mutant as a learner's " +
      'solution: a mutant accepted with every follow-up passed is a gap in the suite, unless ' +
      `solutions/<dir>/${EQUIVALENTS_FILE} lists it as equivalent.`,
    options: {
      jobs: {
        type: 'string',
        value: 'N',
        help: 'judge N mutants at once (default: one per core)',
      },
      mutant: {
        type: 'string',
        value: 'ID',
        multiple: true,
        help: 'judge only mutant ID (as --verbose numbers them) of the one problem named; may be repeated',
      },
      verbose: {
        type: 'boolean',
        default: false,
        help: 'list every mutant with what became of it, not only the survivors',
      },
    },
    notes: [
      'Without a problem named, every problem is mutated.',
      'Columns: killed by the verdict (not Accepted), killed only by a follow-up (Accepted, a',
      'follow-up failed), killed by the compiler (Compile Error: not counted in the score),',
      'listed as equivalent (or as slower only: the same answers at a cost no affordable case',
      'shows; counted apart in the last line), survived. Exit code 0 when no mutant survives',
      'unexplained.',
    ],
    example: 'npm run mutate -- 933 --verbose',
  });
  const chosen = positionals.length > 0 ? resolveProblems(problems, positionals) : problems;
  let jobs = availableParallelism();
  if (values.jobs !== undefined) {
    jobs = Number(values.jobs);
    if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64) {
      throw new UsageError(`--jobs ${shownArg(values.jobs)} must be a whole number from 1 to 64`);
    }
  }
  let wanted: number[] | undefined;
  if (values.mutant !== undefined) {
    if (chosen.length !== 1) throw new UsageError('--mutant needs exactly one problem named');
    wanted = values.mutant.map((text) => {
      const id = Number(text);
      if (!/^\d+$/.test(text) || id < 1) {
        throw new UsageError(`--mutant ${shownArg(text)} must be a mutant's number (1 or more)`);
      }
      return id;
    });
  }

  const started = performance.now();
  const scratch = mkdtempSync(path.join(tmpdir(), 'window-katas-mutants-'));
  symlinkSync(PROBLEMS_DIR, path.join(scratch, 'problems'), 'dir');
  // One child process per lane, kept from mutant to mutant, with a spare waiting: a mutant stopped
  // at its verdict kills its child, and the next mutant should not wait for a new one to start.
  const slots: SessionSlot[] = Array.from({ length: jobs }, () => ({ keepSpare: true }));
  // One Redis for the whole run, started for the first problem that requires it, gone at the end.
  const redis = new CommandRedis();
  const runs: ProblemRun[] = [];
  let headed = false;
  try {
    for (const problem of chosen) {
      const run = await mutateProblem(problem, scratch, slots, redis, wanted, io);
      runs.push(run);
      // A full run takes minutes: each row shows as its problem is done, details after the table.
      if (!headed) io.out(io.style.bold(tableRow(HEADER, RIGHT)));
      headed = true;
      io.out(row(run, io));
    }
  } finally {
    slots.forEach(releaseSlot);
    rmSync(scratch, { recursive: true, force: true });
    await redis.close();
  }

  let failed = false;
  for (const run of runs) {
    if (run.broken) failed = true;
    // Every mutant with --verbose, else only the survivors no entry explains.
    for (const mutant of run.mutants) {
      const outcome = run.outcomes.get(mutant.id);
      if (!outcome) continue;
      const entry = run.equivalent.get(mutant.id);
      const gap = outcome.fate === 'survived' && !entry;
      if (gap) failed = true;
      if (!values.verbose && !gap) continue;
      const fate = entry
        ? `${entry.kind === 'slower-only' ? 'slower only' : 'equivalent'}: ${entry.reason}`
        : outcomeText(outcome);
      const time = values.verbose ? ` · ${(outcome.ms / 1000).toFixed(1)} s` : '';
      io.out(`\n${heading(run, mutant)} · ${gap ? io.style.red(fate) : fate}${time}`);
      io.out(diff(run, mutant, io).join('\n'));
      // Ready to paste into the list, once the reason is written, if the mutant is equivalent.
      if (gap) io.out(io.style.dim(`    ${JSON.stringify(entryFor(mutant, run.all))}`));
    }
    if (run.flakyReference) {
      io.out(
        io.style.yellow(
          `\n${run.problem.id}: the reference was ${run.flakyReference.replace('killed', 'rejected')}, then accepted in full when judged again: a flaky case`,
        ),
      );
    }
    for (const mutant of run.mutants) {
      const outcome = run.outcomes.get(mutant.id);
      if (!outcome?.flaky) continue;
      io.out(
        io.style.yellow(
          `\n${heading(run, mutant)}: ${outcome.flaky} at first, ${outcomeText(outcome)} when judged again (which counts): a flaky case`,
        ),
      );
    }
    for (const entry of run.stale) {
      failed = true;
      io.out(
        `\n${run.problem.id}: ${EQUIVALENTS_FILE} lists a mutant that no longer exists: ${describeEntry(entry)}`,
      );
    }
    for (const { mutant, entry, outcome } of run.killedListed) {
      failed = true;
      io.out(
        `\n${run.problem.id}: ${EQUIVALENTS_FILE} lists #${mutant.id} (${describeEntry(entry)}) as equivalent, but it was ${outcomeText(outcome)}`,
      );
    }
  }

  const judged = runs.filter((r) => !r.broken && !r.unjudged);
  const unjudged = runs.filter((r) => r.unjudged).length;
  const sum = (f: (r: ProblemRun) => number): number => judged.reduce((n, r) => n + f(r), 0);
  const killed = sum((r) => count(r, 'verdict') + count(r, 'follow-up'));
  const scored = killed + sum((r) => r.survivors.length);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const ignored = sum((r) => r.ignored);
  const slower = sum(
    (r) => [...r.equivalent.values()].filter((e) => e.kind === 'slower-only').length,
  );
  io.out(
    `\nKilled ${killed}/${scored} non-equivalent mutants` +
      ` · ${sum((r) => r.equivalent.size) - slower} equivalent` +
      (slower > 0 ? ` · ${slower} slower only` : '') +
      ` · ${sum((r) => count(r, 'compile'))} do not compile` +
      (ignored > 0 ? ` · ${ignored} error messages not mutated` : '') +
      ` · ${seconds} s` +
      // Neither proved nor failed: counted apart, as grade counts a problem it could not judge.
      (unjudged > 0 ? ` · ${unjudged} not judged` : ''),
  );
  if (sum((r) => r.survivors.length) > 0) {
    io.out(
      io.style.dim(
        `A survivor is a gap in the suite (add a case that tells it from the reference) or an ` +
          `equivalent mutant (list it in solutions/<dir>/${EQUIVALENTS_FILE}, with why).`,
      ),
    );
  }
  // Nothing could be judged at all: not a success (nothing was proved), not a failure either.
  if (unjudged === runs.length) return USAGE_EXIT;
  return failed ? 1 : 0;
}
