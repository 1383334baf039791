// `npm run check-problem <problem> [--mutate]`: one problem's proofs, for whoever writes or changes
// it, without the whole of `npm test`. They are the project's own tests, run for this problem
// alone: the reference accepted with every follow-up passed, the stub Not Started, every known
// mistake caught by its own trap and leading the report, the statement's examples equal to the
// suite's, its head equal to problem.json (and the README's ladder), the stub the pristine one,
// the compatibility corpus and the design test where the problem has them. Then what the tests
// check only for the whole tree: no TODO(new-problem) left in its files. With --mutate, last, the
// mutation run of `npm run mutate` (minutes, so asked for).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadProblems, type Problem } from '../../harness/judge/problems.ts';
import { REPO_ROOT } from '../../harness/paths.ts';
import { escapeControl } from '../../harness/escape.ts';
import { WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { parse, resolveProblem, UsageError, type IO } from '../lib/cli.ts';
import { mutate } from './mutate.ts';
import { designTestFile, MARKER } from './new-problem.ts';

/** The test files that prove problems, each test named after the problem it proves. */
const PROOF_FILES = [
  'unit/problems.test.ts',
  'stubs.test.ts',
  'compat.test.ts',
  'redis-statement-examples.test.ts',
];

/** The files test/problem-checks.ts shares the problems out to (problems-a.test.ts, …). */
const SHARD = /^problems-[a-z]+\.test\.ts$/;

/** One vitest run: its files, and the pattern of the full test names it runs (all if none). */
export interface ProofRun {
  files: string[];
  pattern?: string;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The tests naming this problem: the folder name as a whole word of the full name (`933-…: the
 * shipped stub`, `933-… the reference is accepted`), so that `token-bucket` selects neither
 * `token-bucket-limiter` nor `redis-token-bucket`; and the README's ladder, one test for all.
 */
export const testsOf = (dir: string): string =>
  `(^|\\s)${escapeRegExp(dir)}:?\\s|^README's ladder `;

/** The vitest runs that prove a problem, as paths relative to the repository. */
export function proofRuns(problem: Problem, root: string = REPO_ROOT): ProofRun[] {
  const testDir = path.join(root, 'test');
  const shards = readdirSync(testDir).filter((file) => SHARD.test(file));
  const named = [...shards, ...PROOF_FILES]
    .filter((file) => existsSync(path.join(testDir, file)))
    .map((file) => `test/${file}`);
  const runs: ProofRun[] = [{ files: named, pattern: testsOf(problem.dir) }];
  const design = designTestFile(
    { problems: '', solutions: path.join(root, 'solutions') },
    problem.dir,
  );
  if (existsSync(design)) runs.push({ files: [path.relative(root, design)] });
  return runs;
}

/** One check's outcome, as the summary lists it. */
export interface Checked {
  /** The test file it comes from, relative to the repository; none for the command's own. */
  file?: string;
  name: string;
  passed: boolean;
  /** Why it failed, in a few lines. */
  detail?: string;
}

interface VitestReport {
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
}

/** The first lines of a failure, enough to see what it is about. */
const firstLines = (text: string, lines = 3): string =>
  text.split('\n').filter(Boolean).slice(0, lines).join('\n');

/** A vitest report as checks: each test run (skipped ones left out), and each file that broke. */
export function checksOf(report: VitestReport, dir: string, root: string): Checked[] {
  const checks: Checked[] = [];
  for (const file of report.testResults) {
    const ran = file.assertionResults.filter((t) => t.status === 'passed' || t.status === 'failed');
    const where = path.relative(root, file.name);
    if (ran.length === 0 && file.status === 'failed') {
      // The file did not load (a syntax error, an import that fails): no test of it ran.
      checks.push({
        file: where,
        name: 'could not run',
        passed: false,
        detail: firstLines(file.message ?? ''),
      });
    }
    for (const test of ran) {
      // The problem's name is said once, at the top.
      const name = test.fullName.replace(new RegExp(`(^|\\s)${escapeRegExp(dir)}:?\\s`), '$1');
      checks.push({
        file: where,
        name,
        passed: test.status === 'passed',
        ...(test.status === 'failed'
          ? { detail: firstLines(test.failureMessages?.join('\n') ?? '') }
          : {}),
      });
    }
  }
  return checks;
}

/** Runs one vitest run and reads its report. */
function runVitest(run: ProofRun, root: string): VitestReport {
  const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
  if (!existsSync(vitest)) {
    throw new UsageError(
      'check-problem runs the tests: install the dev dependencies (npm install)',
    );
  }
  const scratch = mkdtempSync(path.join(tmpdir(), 'window-katas-check-'));
  const output = path.join(scratch, 'report.json');
  try {
    const args = [vitest, 'run', ...run.files, '--coverage.enabled=false', '--reporter=json'];
    args.push(`--outputFile=${output}`, ...(run.pattern ? ['-t', run.pattern] : []));
    const result = spawnSync(process.execPath, args, {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined },
      maxBuffer: 64 * 1024 * 1024,
    });
    if (!existsSync(output)) {
      throw new Error(`vitest gave no report (exit ${result.status}):\n${result.stderr}`);
    }
    return JSON.parse(readFileSync(output, 'utf8')) as VitestReport;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The problem's files (its two folders, its design test) that still hold the marker. */
function unfinished(problem: Problem, root: string): string[] {
  const files = [
    path.join(root, 'problems', problem.dir),
    path.join(root, 'solutions', problem.dir),
  ]
    .filter((dir) => existsSync(dir))
    .flatMap((dir) =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.join(entry.parentPath, entry.name)),
    );
  const design = designTestFile(
    { problems: '', solutions: path.join(root, 'solutions') },
    problem.dir,
  );
  if (existsSync(design)) files.push(design);
  return files
    .filter((file) => readFileSync(file, 'utf8').includes(MARKER))
    .map((file) => path.relative(root, file));
}

/** Each check on a line, under the file it comes from. */
function show(io: IO, checks: Checked[]): void {
  let file: string | undefined;
  for (const check of checks) {
    if (check.file !== file) {
      file = check.file;
      io.out(io.style.dim(file ?? 'the files themselves'));
    }
    showCheck(io, check);
  }
}

function showCheck(io: IO, check: Checked): void {
  const mark = check.passed ? io.style.green('✓') : io.style.red('✗');
  io.out(wrap(`  ${mark} ${escapeControl(check.name)}`, WIDTH, '    '));
  if (check.detail) {
    for (const line of check.detail.split('\n').map((text) => escapeControl(text))) {
      io.out(io.style.dim(wrap(`      ${line}`, WIDTH, '      ')));
    }
  }
}

export async function checkProblem(
  argv: string[],
  io: IO,
  root: string = REPO_ROOT,
): Promise<number> {
  const { values, positionals } = parse(argv, {
    command: 'check-problem',
    args: '<problem>',
    maxArgs: 1,
    summary: "Runs one problem's proofs, as npm test does; with --mutate, its mutation too.",
    options: {
      mutate: {
        type: 'boolean',
        help: 'also run npm run mutate on it (minutes: every mutant is judged)',
      },
    },
    example: 'npm run check-problem -- token-bucket --mutate',
  });
  const name = positionals[0];
  if (name === undefined) throw new UsageError('name the problem: npm run check-problem <problem>');
  const problem = resolveProblem(
    loadProblems(path.join(root, 'solutions'), path.join(root, 'problems')),
    name,
  );
  io.out(io.style.bold(`Proofs of ${problem.dir}`));
  io.transient?.('running its tests…');
  const checks = proofRuns(problem, root).flatMap((run) =>
    checksOf(runVitest(run, root), problem.dir, root),
  );
  const left = unfinished(problem, root);
  checks.push({
    name: `no ${MARKER} left in its files`,
    passed: left.length === 0,
    ...(left.length > 0 ? { detail: left.join('\n') } : {}),
  });
  show(io, checks);
  const failed = checks.filter((check) => !check.passed).length;
  let mutated: number | undefined;
  if (values.mutate) {
    io.out(io.style.bold(`\nMutation of ${problem.dir}`));
    mutated = await mutate([problem.dir], io);
  }
  const mutation =
    mutated === undefined
      ? 'mutation not run (add -- --mutate)'
      : mutated === 0
        ? 'mutation passed'
        : 'mutation failed';
  io.out(`\n${checks.length - failed}/${checks.length} checks passed · ${mutation}`);
  return failed === 0 && (mutated === undefined || mutated === 0) ? 0 : 1;
}
