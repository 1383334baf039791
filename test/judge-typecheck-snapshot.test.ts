// The type checker started from a V8 startup snapshot (harness/judge/typecheck/snapshot.ts): it
// answers exactly as the worker thread does, a repo without a snapshot builds one (and checks
// meanwhile in the worker), and a snapshot Node refuses is thrown away, its checks answered all the
// same. Nothing it starts outlives the process that asked.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, test } from 'vitest';
import { readOpened } from '../harness/read-file.ts';
import {
  CHECKER_SOURCE,
  serveTypeChecks,
  type CheckReply,
  type CheckRequest,
} from '../harness/judge/typecheck/server.ts';
import { checkerSetup } from '../harness/judge/typecheck/setup.ts';
import {
  buildCheckerSnapshot,
  snapshotFile,
  spawnSnapshotChecker,
} from '../harness/judge/typecheck/snapshot.ts';
import { REPO_ROOT } from '../harness/paths.ts';
import { copyRepo } from '../scripts/lib/repo-copy.ts';
import { scratchDir } from './helpers.ts';

const typescript = createRequire(path.join(REPO_ROOT, 'package.json')).resolve('typescript');
const dir = scratchDir('typecheck-snapshot');
// A snapshot is 30 MB: none is left in the temporary folder.
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Texts that reach the checker's different paths: errors, globals, an import, a clean file. */
const TEXTS = [
  'export const n: string = 5;\n',
  'export const n: number = _.sum([5]);\nconst q = new Queue<number>();\nq.push("x");\n',
  "import type { Clock } from '../problems/rate-limiter-contract.ts';\nexport const c: Clock = { now: () => 'x' };\n",
  'export class RecentCounter { private q: number[] = []; ping(t: number): number { this.q.push(t); return this.q.length; } }\n',
];

function requests(): CheckRequest[] {
  return TEXTS.map((text, i) => ({
    id: i + 1,
    file: path.join(REPO_ROOT, 'solutions', `snapshot-${i}.ts`),
    text,
    home: undefined,
  }));
}

describe('the checker started from a snapshot', () => {
  test('answers every check as the worker thread does', async () => {
    const setup = checkerSetup(typescript, false);
    expect(await buildCheckerSnapshot(setup, CHECKER_SOURCE)).toBe(true);

    const inThread: CheckReply[] = [];
    let listener: ((request: CheckRequest) => void) | undefined;
    serveTypeChecks(
      { on: (_, l) => (listener = l), postMessage: (reply) => inThread.push(reply) },
      createRequire(import.meta.url),
      setup,
      undefined,
      undefined,
      readOpened,
    );
    for (const request of requests()) listener?.(request);

    const spawned = spawnSnapshotChecker(setup);
    expect(spawned).toBeDefined();
    const { child } = spawned!;
    const fromSnapshot: CheckReply[] = [];
    const lines = createInterface({ input: child.stdout! });
    const done = new Promise<void>((resolve) => {
      lines.on('line', (line) => {
        fromSnapshot.push(JSON.parse(line) as CheckReply);
        if (fromSnapshot.length === TEXTS.length) resolve();
      });
    });
    for (const request of requests()) child.stdin!.write(`${JSON.stringify(request)}\n`);
    await done;
    // Its input closed, it ends by itself.
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.stdin!.end();
    expect(await exited).toBe(0);

    expect(inThread.filter((r) => 'errors' in r && r.errors.length > 0)).toHaveLength(3);
    expect(fromSnapshot).toEqual(inThread);
  });
});

describe('a repo with its own TypeScript, and no snapshot yet', () => {
  // Its own TypeScript (hard links: a copy's packages are otherwise links to this repo's, and so
  // is its snapshot), so that this test builds, breaks and rebuilds a snapshot nobody else uses.
  const repo = copyRepo(path.join(dir, 'repo'));
  const own = path.join(repo, 'node_modules', 'typescript');
  rmSync(own);
  const linkTree = (from: string, to: string): void => {
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      const source = path.join(from, entry.name);
      if (entry.isDirectory()) linkTree(source, path.join(to, entry.name));
      else linkSync(source, path.join(to, entry.name));
    }
  };
  linkTree(path.dirname(path.dirname(typescript)), own);
  const ownTypescript = path.join(own, 'lib', 'typescript.js');
  // Where the copy's checker keeps it: beside the copy's own TypeScript.
  const snapshot = (): string => snapshotFile(checkerSetup(ownTypescript, false));
  const learner = path.join(dir, 'learner');

  /** `grade` of one file with a type error no earlier run has seen (kept answers are not reused). */
  const gradeTypeError = (run: number): { stdout: string; ms: number } => {
    const file = path.join(learner, '933-number-of-recent-calls', 'solution.ts');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      `export class RecentCounter { ping(t: number): number { return t; } }\nconst wrong${run}: string = ${run};\n`,
    );
    const started = performance.now();
    const result = spawnSync(
      process.execPath,
      ['scripts/launch.mjs', 'grade', '--dir', learner, '933', '--fresh', '--reveal'],
      { cwd: repo, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 },
    );
    return { stdout: result.stdout + result.stderr, ms: performance.now() - started };
  };

  const checkersLeft = (): string[] => {
    const ps = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout;
    return ps.split('\n').filter((line) => line.includes(path.join(repo, 'node_modules')));
  };

  test('the first grade checks in the worker and leaves a snapshot; a refused one is replaced', () => {
    const blob = snapshot();
    expect(existsSync(blob)).toBe(false);

    const first = gradeTypeError(1);
    expect(first.stdout).toMatch(/Compile Error/);
    expect(first.stdout).toMatch(/wrong1: string = 1/);
    // The grade waited for the build: the snapshot is whole, and no build is left behind.
    expect(existsSync(blob)).toBe(true);
    expect(readdirSync(path.dirname(blob)).filter((f) => /\.(tmp|cjs|lock)$/.test(f))).toEqual([]);

    // Used, not rebuilt.
    const built = statSync(blob).mtimeMs;
    const second = gradeTypeError(2);
    expect(second.stdout).toMatch(/wrong2: string = 2/);
    expect(statSync(blob).mtimeMs).toBe(built);

    // A snapshot Node will not start from (another Node's, or damaged): the check is answered by
    // the worker, and the snapshot is built again.
    writeFileSync(blob, 'not a snapshot');
    const third = gradeTypeError(3);
    expect(third.stdout).toMatch(/Compile Error/);
    expect(third.stdout).toMatch(/wrong3: string = 3/);
    expect(statSync(blob).size).toBeGreaterThan(1_000_000);

    expect(checkersLeft()).toEqual([]);
  }, 240_000);
});
