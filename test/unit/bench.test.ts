// `npm run bench` with its children faked: what it measures, how it reports margins and ratios, and
// that it cleans up. The real thing takes minutes; here each child answers at once with set figures.
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { REPO_ROOT } from '../../harness/paths.ts';
import { findProblem, loadProblems, type Problem } from '../../harness/judge/problems.ts';

type Outcome =
  | { kind: 'result'; result: { status: string; ms: number; retainedMb?: number } }
  | { kind: 'died'; reason: { why: 'timeout' } };

const fake = vi.hoisted(() => ({
  /** The cases each runner lists, by problem folder. */
  cases: {} as Record<string, object[]>,
  /** Learner files whose module fails to load. */
  loadFails: new Set<string>(),
  /** What running a case of a file gives; `run` counts the runs of that file so far. */
  outcome: (() => undefined) as (file: string, index: number, run: number) => unknown,
  runs: [] as { file: string; index: number; deadlineMs: number }[],
  /** What each child was opened with, and the code it was given to load. */
  opened: [] as object[],
  loads: [] as { file: string; code: string }[],
  sessions: 0,
  killed: 0,
  spawnSync: [] as { args: string[]; cwd: string; env: Record<string, string | undefined> }[],
  spawnSyncStatus: 0,
  /** A clock that only the faked commands move: what bench.ts reads as performance.now(). */
  now: 0,
  spawned: [] as { args: string[]; cwd: string; killed: boolean }[],
  /** Files given to the type checker, with the source each held then. */
  checks: [] as { file: string; source: string }[],
}));

vi.mock('../../harness/judge/typecheck.ts', () => ({
  checkTypes: async (file: string) => {
    const fs = process.getBuiltinModule('node:fs');
    fake.checks.push({ file, source: fs.readFileSync(file, 'utf8') });
    return [];
  },
}));

vi.mock('../../harness/judge/compile.ts', () => ({
  runnerBundle: async (suiteFile: string) => `/fake/runner-${suiteFile.split('/').at(-2)}.mjs`,
  compileLearner: async (file: string) => ({ ok: true, code: `/* compiled from ${file} */` }),
  workerBundle: async () => '/fake/worker.mjs',
}));

vi.mock('../../harness/judge/child-session.ts', () => ({
  ChildSession: class {
    private options = { runnerBundle: '', learnerFile: '', className: '' };
    constructor() {
      fake.sessions++;
    }
    open(request: { runner: string; learnerFile: string; className: string }) {
      fake.opened.push(request);
      this.options = { ...request, runnerBundle: request.runner };
    }
    async listed() {
      const dir = /runner-(.+)\.mjs$/.exec(this.options.runnerBundle)?.[1] ?? '';
      return fake.cases[dir] ?? [];
    }
    async load(code: string) {
      fake.loads.push({ file: this.options.learnerFile, code });
      return fake.loadFails.has(this.options.learnerFile)
        ? { kind: 'load-failed', cases: [], status: 'runtime-error', message: 'boom' }
        : { kind: 'ready', cases: [] };
    }
    async run(index: number, deadlineMs: number) {
      const file = this.options.learnerFile;
      const run = fake.runs.filter((r) => r.file === file && r.index === index).length;
      fake.runs.push({ file, index, deadlineMs });
      return fake.outcome(file, index, run);
    }
    kill() {
      fake.killed++;
    }
  },
}));

vi.mock('node:child_process', () => ({
  spawnSync: (
    _node: string,
    args: string[],
    options: { cwd: string; env: Record<string, string | undefined> },
  ) => {
    fake.spawnSync.push({ args, cwd: options.cwd, env: options.env });
    // The floor takes 4 ms and grade 6 ms, on a clock of the test's own: a busy machine cannot
    // shift the figures.
    fake.now += args[0]?.endsWith('vitest.mjs') ? 4 : 6;
    return { status: fake.spawnSyncStatus, stdout: 'out\n', stderr: 'err\n' };
  },
  spawn: (_node: string, args: string[], options: { cwd: string }) => {
    const record = { args, cwd: options.cwd, killed: false };
    fake.spawned.push(record);
    // kata --watch as seen on its output: watching, then judgements (accepted, then a loop
    // stopped for time), over and over; q on its input ends it.
    const lines = [
      '— 3:00:00 PM · judging the stub —\n',
      'Accepted · checking the follow-ups…\n',
      '933 · Number of Recent Calls — Accepted  (cases 7/7 · follow-ups 4/4 · 80 ms)\n',
      '— 3:00:01 PM · judging the stub —\n',
      'Time Limit Exceeded · checking the follow-ups…\n',
      '933 · Number of Recent Calls — Time Limit Exceeded  (cases 0/7 · follow-ups 0/4 · 80 ms)\n',
      '— 3:00:02 PM · judging the stub —\n',
      '933 · Number of Recent Calls — Compile Error  (cases 0/7 · follow-ups 0/4 · 80 ms)\n',
    ];
    const child = Object.assign(new EventEmitter(), {
      stdout: new EventEmitter(),
      stdin: {
        write: (key: string) => {
          if (key === 'q') setImmediate(() => child.emit('exit', 0));
        },
      },
      kill: () => {
        record.killed = true;
        clearInterval(timer);
      },
    });
    let n = 0;
    const timer = setInterval(() => {
      child.stdout.emit(
        'data',
        Buffer.from(n === 0 ? 'Watching the stub\n' : lines[(n - 1) % lines.length]!),
      );
      n++;
    }, 2);
    return child;
  },
}));

const p933 = findProblem(loadProblems(), '933')!;
const wrong = (file: string): string => path.join(p933.mistakesDir, file);
let stdout: string[];

/** Runs bench.ts afresh with the given section, as `npm run bench -- <section>` would. */
async function bench(section?: string): Promise<string> {
  process.argv = [process.execPath, 'bench.ts', ...(section ? [section] : [])];
  vi.resetModules();
  await import('../../scripts/bench.ts');
  return stdout.join('');
}

const saved = process.argv;
const savedRedis = { server: process.env.REDIS_SERVER, url: process.env.REDIS_URL };
beforeEach(() => {
  // No Redis here: the Redis problems are skipped before anything is started, since starting a
  // server would spawn through the faked child_process above. Their skip is checked below.
  process.env.REDIS_SERVER = '/nonexistent';
  delete process.env.REDIS_URL;
  stdout = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout.push(String(chunk));
    return true;
  });
  fake.cases = {};
  fake.loadFails = new Set();
  fake.runs = [];
  fake.opened = [];
  fake.loads = [];
  fake.sessions = 0;
  fake.killed = 0;
  fake.spawnSync = [];
  fake.spawnSyncStatus = 0;
  fake.spawned = [];
  fake.checks = [];
});

afterEach(() => {
  vi.restoreAllMocks();
  process.argv = saved;
  for (const [name, value] of [
    ['REDIS_SERVER', savedRedis.server],
    ['REDIS_URL', savedRedis.url],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('bench limits', () => {
  const info = (name: string, trap: string | null, extra: object) => ({
    name,
    tier: 'follow-up',
    trap,
    hint: null,
    timeLimitMs: 1000,
    timeLimitSet: false,
    retainedLimitMb: null,
    ...extra,
  });

  beforeEach(() => {
    fake.cases[p933.dir] = [
      info('statement example', null, {}),
      info('scale', 'scale', { timeLimitMs: 2000, timeLimitSet: true }),
      info('memory', 'instance-isolation', { retainedLimitMb: 4 }),
      info('window', 'custom-window', { timeLimitSet: true }),
      info('repeats', 'equal-timestamps', { timeLimitSet: true, timeLimitMs: 500 }),
    ];
    fake.loadFails.add(wrong('set-of-times.ts'));
    const referenceMs = [100, 250, 120, 90, 200];
    fake.outcome = (file, index, run): Outcome => {
      if (file === p933.referenceFile) {
        return {
          kind: 'result',
          result: { status: 'passed', ms: referenceMs[run]!, retainedMb: run },
        };
      }
      if (file === wrong('shift-queue.ts')) {
        return { kind: 'result', result: { status: 'time-limit-exceeded', ms: 9000 } };
      }
      if (file === wrong('module-queue.ts')) {
        return { kind: 'result', result: { status: 'failed', ms: 0, retainedMb: 40 } };
      }
      return { kind: 'died', reason: { why: 'timeout' } };
    };
  });

  test('times only the cases with limits of their own: the reference and each wrong one', async () => {
    const out = await bench('limits');
    // Only 933 lists cases here, and its example has no limit of its own.
    expect(out).not.toContain('statement example');
    expect(out).toContain('933 · scale [scale]');
    // The worst of five reference runs against the limit.
    expect(out).toContain('  time limit 2000 ms · reference 250 ms · margin 8.0×');
    expect(out).toContain(
      '  mistakes/shift-queue.ts: time-limit-exceeded in 9000 ms (4.5× the limit)',
    );
    // Memory: the reference keeps at most 4 MB over its runs (0, 1, 2, 3, 4).
    expect(out).toContain('  memory limit 4 MB · reference keeps 4 MB · margin 1.0×');
    expect(out).toContain(
      '  mistakes/module-queue.ts: failed in 0 ms (0.0× the limit) · keeps 40 MB (10.0× the limit)',
    );
    expect(out).toContain(
      '  mistakes/fixed-window.ts: stopped at 10000 ms, unfinished · margin > 10×',
    );
    expect(out).toContain('  mistakes/set-of-times.ts: failed to load · margin > 10×');
    // A problem that requires Redis, on a machine without it: named as skipped, and nothing of it
    // is started, listed or run.
    const needsRedis = loadProblems().filter((p) => p.requires?.includes('redis'));
    expect(needsRedis.length).toBeGreaterThan(0);
    for (const p of needsRedis) {
      expect(out).toContain(`\n${p.id} · skipped, not measured: needs Redis (`);
      expect(fake.opened.some((o) => JSON.stringify(o).includes(p.dir))).toBe(false);
    }
    expect(fake.spawned).toEqual([]);
    expect(out).not.toContain('kata watch mode');
    expect(out).not.toContain('grade / floor');
  });

  test('runs each reference five times and each wrong file once, with ten times the limit', async () => {
    await bench('limits');
    const scale = fake.runs.filter((r) => r.index === 1);
    expect(scale.filter((r) => r.file === p933.referenceFile)).toHaveLength(5);
    expect(scale.filter((r) => r.file === wrong('shift-queue.ts'))).toHaveLength(1);
    expect(new Set(scale.map((r) => r.deadlineMs))).toEqual(new Set([20_000]));
    expect(fake.runs.some((r) => r.index === 0)).toBe(false);
    // Every child that ran a case was killed afterwards, and so was every other one: those that
    // only listed cases and those whose solution failed to load.
    const ran = fake.runs.length;
    expect(fake.killed).toBeGreaterThanOrEqual(ran);
    expect(fake.killed).toBe(fake.sessions);
  });

  test('each child loads the code compiled from its own file, and opens with no bundle path', async () => {
    await bench('limits');
    expect(fake.loads.length).toBeGreaterThan(0);
    for (const { file, code } of fake.loads) expect(code).toBe(`/* compiled from ${file} */`);
    expect(fake.loads.map((l) => l.file)).toContain(wrong('set-of-times.ts'));
    for (const request of fake.opened) {
      expect(Object.keys(request).sort()).toEqual(['className', 'learnerFile', 'runner']);
    }
  });

  test('a reference that does not finish stops the bench', async () => {
    fake.outcome = () => ({ kind: 'died', reason: { why: 'timeout' } });
    await expect(bench('limits')).rejects.toThrow('the reference did not finish scale');
  });

  test('a reference that takes no time at all has an infinite margin', async () => {
    fake.cases[p933.dir] = [info('instant', 'none', { timeLimitSet: true })];
    fake.outcome = () => ({ kind: 'result', result: { status: 'passed', ms: 0 } });
    expect(await bench('limits')).toContain('reference 0 ms · margin ∞');
  });
});

describe('bench grade', () => {
  beforeEach(() => {
    fake.now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => fake.now);
  });

  test('times grade against a bare vitest run, after one run to warm the caches', async () => {
    const out = await bench('grade');
    const grades = fake.spawnSync.filter((c) => c.args[0] === 'scripts/launch.mjs');
    const floors = fake.spawnSync.filter((c) => c.args[0]?.endsWith('vitest.mjs'));
    // A warm-up, then per run: the floor, grade --fresh, and grade after one file is edited.
    expect(grades).toHaveLength(11);
    expect(floors).toHaveLength(5);
    const copies = path.join(REPO_ROOT, 'node_modules', '.cache', 'window-katas', 'bench-grade');
    const fresh = ['scripts/launch.mjs', 'grade', '--dir', copies, '--fresh'];
    expect(grades[0]?.args).toEqual(fresh);
    expect(grades[1]?.args).toEqual(fresh);
    expect(grades[2]?.args).toEqual(fresh.slice(0, -1));
    expect(floors[0]?.args.slice(1, 3)).toEqual(['run', '--dir']);
    for (const c of fake.spawnSync) {
      expect(c.cwd).toBe(REPO_ROOT);
      expect(c.env.NO_COLOR).toBe('1');
    }
    // Five runs edited five different copies, each once; the repo's own references are untouched.
    const edited = loadProblems()
      .slice(0, 5)
      .map((p) => readFileSync(path.join(copies, p.dir, 'solution.ts'), 'utf8'));
    edited.forEach((text, run) =>
      expect(text).toMatch(new RegExp(`\\nexport const benchEdit${run} = \\d+;\\n$`)),
    );
    const untouched = loadProblems()[5] as Problem;
    expect(readFileSync(path.join(copies, untouched.dir, 'solution.ts'), 'utf8')).toBe(
      readFileSync(untouched.referenceFile, 'utf8'),
    );
    expect(out).toContain('references edited since the last grade: median 6 ms of 5 runs');
    expect(out).toContain('every reference judged: median 6 ms of 5 runs');
    expect(out).toContain('the floor): median 4 ms');
    expect(out).toContain('grade / floor = 1.50 (target at most 1.5)');
  });

  test('a command that fails stops the bench with its output', async () => {
    fake.spawnSyncStatus = 1;
    await expect(bench('grade')).rejects.toThrow(
      /scripts\/launch\.mjs grade --dir .* failed:\nout\nerr\n/,
    );
  });
});

describe('bench watch', () => {
  test('saves the stub of a throwaway copy six times and reports save-to-verdict latency', async () => {
    const out = await bench('watch');
    expect(fake.spawned).toHaveLength(1);
    const [child] = fake.spawned;
    expect(child?.args).toEqual(['scripts/launch.mjs', 'kata', '933', '--watch']);
    expect(child?.cwd).not.toBe(REPO_ROOT);
    // The copy is gone and its child stopped once the figures are in.
    expect(existsSync(child!.cwd)).toBe(false);
    expect(child?.killed).toBe(true);
    expect(out).toContain(
      'kata watch mode, save → verdict on example and core cases (933, 6 saves):',
    );
    expect(out).toMatch(/ {2}median \d+ ms, worst \d+ ms \(target within 300 ms\)/);
    expect(out).toMatch(/loops forever: verdict \d+ ms after the save \(target within 2500 ms\)/);
    expect(out).toMatch(/a save while judging a loop: the newest file's verdict \d+ ms after it/);
    expect(out).toMatch(/q while judging a loop: exited \d+ ms after it \(target within 200 ms\)/);
    expect(out).toMatch(
      /a type error: the Compile Error report \d+ ms after the save \(median of 3, worst \d+ ms; target within 1000 ms\)/,
    );
    // The checker alone: once cold, then ten saves, every other one with a type error.
    expect(out).toMatch(
      /type checker \(LeetCode's options, started from its snapshot\): first check \d+ ms, then a save checked in median \d+ ms, worst \d+ ms \(10 saves\)/,
    );
    expect(fake.checks).toHaveLength(11);
    expect(new Set(fake.checks.map((c) => c.file)).size).toBe(1);
    expect(fake.checks.filter((c) => /const typo: string/.test(c.source))).toHaveLength(5);
    expect(existsSync(path.dirname(fake.checks[0]!.file))).toBe(false);
  });
});

test('with no section named, runs all three', async () => {
  fake.outcome = () => ({ kind: 'result', result: { status: 'passed', ms: 1 } });
  const out = await bench();
  expect(out).toContain('Limits of the scale and memory traps');
  expect(out).toContain('grade / floor');
  expect(out).toContain('kata watch mode');
});
