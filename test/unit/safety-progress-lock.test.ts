// Commands run at the same time (a grade in one terminal, a hint in another, a script running ten)
// must not lose each other's progress: every update is a locked read-modify-write. Proved with real
// processes, started together, each recording updates through the real progress API.
import { spawn } from 'node:child_process';
import {
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  emptyProgress,
  entryFor,
  loadProgress,
  saveProgress,
  updateProgress,
  withProgressLock,
} from '../../harness/learner/progress.ts';
import { LOCK_STALE_MS, withLock } from '../../harness/learner/state.ts';
import { scratchDir } from '../helpers.ts';

const PROCESSES = 10;
const ROUNDS = 10;
const progressModule = fileURLToPath(new URL('../../harness/learner/progress.ts', import.meta.url));

/**
 * Each process says `ready`, waits for `go` on its standard input (so that all start at once), then
 * records ROUNDS judged attempts on one shared problem, and ROUNDS hints and a solution view on a
 * problem of its own, each a separate update, as separate commands would make them.
 */
const WORKER = `
import { entryFor, recordReport, updateProgress } from ${JSON.stringify(progressModule)};
const [file, id, rounds] = process.argv.slice(2);
const warn = (line) => process.stderr.write(line + '\\n');
const report = { dir: 'shared', verdict: 'wrong-answer', cases: [], followUps: { passed: 0, total: 1 }, output: '', ms: 1 };
process.stdout.write('ready\\n');
process.stdin.once('data', () => {
  for (let i = 1; i <= Number(rounds); i++) {
    updateProgress(warn, (progress) => recordReport(progress, report), file);
    updateProgress(warn, (progress) => { entryFor(progress, 'own-' + id).hintsUsed = i; }, file);
  }
  updateProgress(warn, (progress) => {
    entryFor(progress, 'own-' + id).solutionViewed = new Date().toISOString();
  }, file);
  process.exit(0);
});
`;

let bundle: string;

beforeAll(async () => {
  const dir = scratchDir('lock-worker');
  writeFileSync(path.join(dir, 'worker.ts'), WORKER);
  bundle = path.join(dir, 'worker.mjs');
  await build({
    entryPoints: [path.join(dir, 'worker.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
});

/** Starts every worker, waits until all are ready, then lets them go at once. */
async function race(file: string): Promise<{ code: number | null; stderr: string }[]> {
  const children = Array.from({ length: PROCESSES }, (_, id) =>
    spawn(process.execPath, [bundle, file, String(id), String(ROUNDS)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
  const results = children.map(
    (child) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (code) => resolve({ code, stderr }));
      }),
  );
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) =>
          child.stdout.on('data', (chunk: Buffer) => {
            if (chunk.toString().includes('ready')) resolve();
          }),
        ),
    ),
  );
  for (const child of children) child.stdin.end('go\n');
  return Promise.all(results);
}

describe('progress updated by many processes at once', () => {
  test(`${PROCESSES} processes × ${ROUNDS} rounds: no update is lost`, async () => {
    const dir = scratchDir('lock-race');
    const file = path.join(dir, 'progress.json');
    const results = await race(file);
    expect(results).toEqual(Array.from({ length: PROCESSES }, () => ({ code: 0, stderr: '' })));

    const progress = loadProgress((line) => expect.fail(line), file);
    expect(progress.problems.shared?.attempts).toBe(PROCESSES * ROUNDS);
    for (let id = 0; id < PROCESSES; id++) {
      const own = progress.problems[`own-${id}`];
      expect(own?.hintsUsed, `own-${id}`).toBe(ROUNDS);
      expect(own?.solutionViewed, `own-${id}`).toEqual(expect.any(String));
    }
    // No lock, no temporary file is left behind.
    expect(readdirSync(dir)).toEqual(['progress.json']);
  });
});

describe('the lock', () => {
  test('an update without changes writes nothing', () => {
    const file = path.join(scratchDir('lock'), 'progress.json');
    expect(
      updateProgress(
        () => {},
        () => 7,
        file,
      ),
    ).toBe(7);
    expect(existsSync(file)).toBe(false);
  });

  test('a lock left by a process that has ended is taken over at once', () => {
    const file = path.join(scratchDir('lock'), 'progress.json');
    // A pid far above any pid_max: no such process.
    writeFileSync(`${file}.lock`, '2147483646 left-behind');
    const started = Date.now();
    updateProgress(
      () => {},
      (p) => void entryFor(p, 'a-b'),
      file,
    );
    expect(Date.now() - started).toBeLessThan(LOCK_STALE_MS);
    expect(loadProgress(() => {}, file).problems['a-b']).toBeDefined();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  test('a lock older than a few seconds is taken over, even if its process lives', () => {
    const file = path.join(scratchDir('lock'), 'progress.json');
    // pid 1 always lives; the lock's time says it has been held far too long.
    writeFileSync(`${file}.lock`, '1 stuck');
    const old = new Date(Date.now() - LOCK_STALE_MS - 2000);
    utimesSync(`${file}.lock`, old, old);
    updateProgress(
      () => {},
      (p) => void entryFor(p, 'a-b'),
      file,
    );
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  test('a fresh lock of a live process is waited for, and not taken over', async () => {
    const file = path.join(scratchDir('lock'), 'progress.json');
    const lock = `${file}.lock`;
    saveProgress(emptyProgress(), file);
    // Another process holds the lock for half a second, writes its update, then releases it.
    const other = { version: 1, problems: { 'from-other': entry() } };
    const script =
      `const fs = require('fs');` +
      `fs.writeFileSync(${JSON.stringify(lock)}, process.pid + ' other');` +
      `process.stdout.write('locked');` +
      `setTimeout(() => {` +
      `  fs.writeFileSync(${JSON.stringify(file)}, ${JSON.stringify(JSON.stringify(other))});` +
      `  fs.rmSync(${JSON.stringify(lock)});` +
      `}, 500);`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const started = Date.now();
    // Blocks this thread until the lock is released.
    updateProgress(
      () => {},
      (p) => void entryFor(p, 'mine'),
      file,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    const problems = loadProgress(() => {}, file).problems;
    // Both survive: the update read the record only once the other process had written it.
    expect(Object.keys(problems).sort()).toEqual(['from-other', 'mine']);
    await new Promise((resolve) => child.on('close', resolve));
  });

  test('a nested update is a bug, and says so at once instead of waiting for itself', () => {
    const file = path.join(scratchDir('lock'), 'progress.json');
    expect(() => withProgressLock(() => withProgressLock(() => 1, file), file)).toThrow(
      /already locked by this process/,
    );
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  test('a lock that is released is not left behind, even when the work throws', () => {
    const lock = path.join(scratchDir('lock'), 'x.lock');
    expect(() =>
      withLock(lock, () => {
        expect(readFileSync(lock, 'utf8')).toMatch(new RegExp(`^${process.pid} `));
        expect(statSync(lock).isFile()).toBe(true);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(existsSync(lock)).toBe(false);
  });
});

function entry() {
  return {
    firstAttempted: '2026-01-01T00:00:00.000Z',
    firstAccepted: null,
    lastAttempted: '2026-01-01T00:00:00.000Z',
    attempts: 1,
    bestVerdict: 'wrong-answer',
    followUpsPassed: 0,
    followUpsTotal: 1,
  };
}
