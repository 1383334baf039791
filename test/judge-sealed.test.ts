// Issue 21 ("Sealed for real"): the hostile files that got out of the learner's realm, and what
// escaped code can still do in the child process. The files are kept in test/fixtures/hostile/.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ChildSession } from '../harness/judge/child-session.ts';
import { compileLearner, runnerBundle, workerBundle } from '../harness/judge/compile.ts';
import { SEAL_KEY_FILE } from '../harness/judge/verified-file.ts';
import { judge } from '../harness/judge/judge.ts';
import { findProblem, loadProblems } from '../harness/judge/problems.ts';
import { REPO_ROOT, SCRATCH_DIR } from '../harness/paths.ts';
import { copyRepo } from '../scripts/lib/repo-copy.ts';
import { runScript, scratchDir } from './helpers.ts';

const problems = loadProblems();
const p933 = findProblem(problems, '933')!;
const hostile = (name: string): string =>
  path.join(import.meta.dirname, 'fixtures', 'hostile', name);

describe('the double-read realm escape (finding 1)', () => {
  test('the forged-Accepted 933 is Wrong Answer, and leaves no file behind', async () => {
    const mark = path.join(tmpdir(), 'window-katas-double-read-escaped');
    rmSync(mark, { force: true });
    const report = await judge({ problem: p933, solutionFile: hostile('double-read-933.ts') });
    expect(existsSync(mark), 'the file written by escaped code').toBe(false);
    expect(report.verdict).toBe('wrong-answer');
    expect(report.followUps.passed).toBe(0);
    // The confined child says nothing of its own on stderr (shown as the learner's output).
    expect(report.output).not.toMatch(/Warning/);
    expect(report.cases.every((c) => c.status === 'failed')).toBe(true);
  });
});

/**
 * The realm deliberately opened: a runner script is the judge's own code, run in the child's own
 * realm with `process` and `require`, exactly where escaped learner code would be. This one tries
 * what escaped code would, prints what happened, and ends the child.
 */
const OPENED = String.raw`
const fs = require('node:fs');
const results = {};
const attempt = (name, fn) => {
  try {
    const done = fn();
    results[name] = 'did: ' + String(done).slice(0, 300);
  } catch (error) {
    results[name] = 'refused: ' + (error && (error.code || error.message));
  }
};
const targets = globalThis.__kataTestTargets;
attempt('write outside the project', () => fs.writeFileSync(targets.outside, 'escaped'));
attempt('write into the cache', () => fs.writeFileSync(targets.cache, 'escaped'));
attempt('rewrite the worker bundle', () => fs.appendFileSync(targets.worker, '// escaped'));
attempt('write into the project', () => fs.writeFileSync(targets.project, 'escaped'));
attempt('write through the fs binding', () => process.binding('fs').open(targets.outside, 0o1101, 0o666, undefined, {}));
attempt('spawn a process', () => {
  const run = require('node:child_process').spawnSync('/bin/sh', ['-c', 'touch ' + targets.spawned]);
  if (run.error) throw run.error;
  return run.status;
});
attempt('exec a process', () => require('node:child_process').execSync('true'));
attempt('spawn through the binding', () => process.binding('spawn_sync'));
attempt('load an addon', () => process.dlopen({ exports: {} }, targets.outside));
attempt('open the inspector', () => new (require('node:inspector').Session)().connect());
attempt('write from a worker thread', () => {
  const { Worker } = require('node:worker_threads');
  const flag = new Int32Array(new SharedArrayBuffer(4));
  new Worker(
    'const { workerData: w } = require("node:worker_threads"); let r = 1;' +
      'try { require("node:fs").writeFileSync(w.file, "escaped"); r = 2; } catch { r = 3; }' +
      'Atomics.store(w.flag, 0, r); Atomics.notify(w.flag, 0);',
    { eval: true, workerData: { flag, file: targets.fromWorker } },
  );
  Atomics.wait(flag, 0, 0, 10000);
  if (flag[0] !== 2) throw new Error(flag[0] === 3 ? 'ERR_ACCESS_DENIED' : 'no answer');
  return 'wrote';
});
attempt('read the seal key', () => fs.readFileSync(targets.key, 'utf8'));
attempt('read the project', () => fs.readFileSync(targets.readme, 'utf8'));
attempt('read the learner state', () => fs.readdirSync(targets.state));
attempt('read the environment', () => {
  const found = Object.entries(process.env).filter(([, v]) => /s3cret|redis:/i.test(String(v)));
  if (found.length === 0) throw new Error('nothing there');
  return JSON.stringify(found);
});
process.stdout.write('OPENED ' + JSON.stringify(results) + '\n');
throw new Error('the opened runner is done');
`;

describe('defence in depth: escaped code in the child (the realm opened on purpose)', () => {
  const dir = path.join(tmpdir(), `window-katas-opened-${process.pid}`);
  const runner = path.join(SCRATCH_DIR, `runner-opened-test-${process.pid}.js`);
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(runner, { force: true });
  });

  test('cannot write a file, start a process, or read secrets', async () => {
    mkdirSync(dir, { recursive: true });
    const worker = await workerBundle();
    const targets = {
      outside: path.join(dir, 'outside'),
      cache: path.join(SCRATCH_DIR, `escaped-${process.pid}`),
      worker,
      project: path.join(REPO_ROOT, `escaped-${process.pid}`),
      spawned: path.join(dir, 'spawned'),
      fromWorker: path.join(dir, 'from-worker'),
      key: SEAL_KEY_FILE,
      readme: path.join(REPO_ROOT, 'README.md'),
      state: path.join(REPO_ROOT, 'problems'),
    };
    mkdirSync(SCRATCH_DIR, { recursive: true });
    writeFileSync(runner, `globalThis.__kataTestTargets = ${JSON.stringify(targets)};\n${OPENED}`);
    // What the parent holds that the child must not: an admin URL with its password.
    const saved = { ...process.env };
    process.env.REDIS_URL = 'redis://admin:s3cret@127.0.0.1:6379';
    process.env.KATA_TEST_TOKEN = 's3cret';
    let session: ChildSession;
    try {
      session = new ChildSession(worker);
    } finally {
      process.env = saved;
    }
    session.open({ runner, learnerFile: 'solution.ts', className: 'X' });
    await session.listed();
    session.kill();
    const line = /^OPENED (.*)$/m.exec(session.output.text);
    expect(line, session.output.text).not.toBeNull();
    const results = JSON.parse(line![1] as string) as Record<string, string>;
    for (const [what, result] of Object.entries(results)) {
      expect(result, what).toMatch(/^refused: /);
    }
    expect(Object.keys(results)).toHaveLength(15);
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(targets.cache) || existsSync(targets.project)).toBe(false);
  });
});

describe('a case blocked without using CPU (finding 7: Atomics.wait)', () => {
  test('is stopped at its deadline, said to be blocked, and the problem ends within seconds', async () => {
    const started = performance.now();
    const report = await judge({ problem: p933, solutionFile: hostile('atomics-wait-933.ts') });
    const tookMs = performance.now() - started;
    expect(report.verdict).toBe('time-limit-exceeded');
    const stopped = report.cases.filter((c) => c.status === 'time-limit-exceeded');
    expect(stopped.length).toBeGreaterThan(0);
    for (const result of stopped) {
      expect(result.message).toMatch(
        /it was blocked, not computing .* stopped after \d+ ms of wall time, using \d+ ms of CPU/,
      );
    }
    // Each blocked case costs its deadline of the problem's budget: a few seconds in all, where it
    // held the problem 87 s before (15 s and more per case).
    expect(tookMs).toBeLessThan(40_000);
  });

  test('a case is never given more wall time than the problem has left', async () => {
    const compiled = await compileLearner(hostile('atomics-wait-933.ts'));
    if (!compiled.ok) throw new Error(compiled.message);
    const session = new ChildSession(await workerBundle());
    session.open({
      runner: await runnerBundle(p933.suiteFile),
      learnerFile: hostile('atomics-wait-933.ts'),
      className: p933.className,
    });
    expect((await session.load(compiled.code)).kind).toBe('ready');
    // A CPU deadline and a blocked time it cannot reach: the problem's wall time left stops it.
    const outcome = await session.run(0, 60_000, 800);
    session.kill();
    expect(outcome.kind).toBe('died');
    const reason = outcome.kind === 'died' ? outcome.reason : undefined;
    expect(reason).toMatchObject({ why: 'timeout', stalled: { blocked: false } });
    const wallMs = reason?.why === 'timeout' ? (reason.stalled?.wallMs ?? 0) : 0;
    expect(wallMs).toBeGreaterThanOrEqual(700);
    expect(wallMs).toBeLessThan(5_000);
  });
});

describe('a verdicts cache folder that is a file (finding 7)', () => {
  test('grade moves it aside and judges, with no stack', () => {
    const repo = copyRepo(scratchDir('verdicts-file'));
    const dir = '933-number-of-recent-calls';
    writeFileSync(
      path.join(repo, 'problems', dir, 'solution.ts'),
      readFileSync(path.join(REPO_ROOT, 'solutions', dir, 'solution.ts'), 'utf8'),
    );
    const scratch = path.join(repo, 'node_modules', '.cache', 'window-katas');
    mkdirSync(scratch, { recursive: true });
    writeFileSync(path.join(scratch, 'verdicts'), 'not a folder');
    const { code, stdout, stderr } = runScript(repo, ['grade', '--', '933']);
    expect(stderr).not.toMatch(/EEXIST|ENOTDIR|at .*\(/);
    expect(stdout).toMatch(/933 .*Accepted/);
    expect(code).toBe(0);
    expect(statSync(path.join(scratch, 'verdicts')).isDirectory()).toBe(true);
    expect(readdirSync(scratch).some((name) => name.startsWith('verdicts.moved-aside-'))).toBe(
      true,
    );
    // And the verdict was remembered in the new folder: the next grade keeps it.
    expect(runScript(repo, ['grade', '--', '933']).stdout).toMatch(/933 .* kept$/m);
  });
});
