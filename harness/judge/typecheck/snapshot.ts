// The type checker's cold start, taken out of every process that checks. Starting TypeScript and
// parsing the ES2024 library costs about a second of CPU each time a `grade` or `kata` process
// checks its first file (server.ts's codeCachedLoader keeps V8's compiled code between processes, which helps
// a little). Node can start a process from a V8 startup snapshot (`node --build-snapshot`): here a
// snapshot of a process that has loaded TypeScript, parsed the library and checked a few files,
// so that a checker started from it answers its first check in a fraction of that.
//
// The snapshot is built once per Node version and TypeScript install (by `npm install`, and
// otherwise by the first process that misses it, after its own check) into the real
// node_modules/.cache, which copies of the repo that link node_modules share. Without it, or if
// Node refuses it, checker.ts checks in a worker thread as before: the snapshot only saves time.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { cacheDirIn, REPO_ROOT } from '../../paths.ts';
import type { Setup } from './server.ts';
import { sha256 } from '../verified-file.ts';

/** Checked while the snapshot is built, so that what most files use is parsed and compiled. */
const WARM_UP_FILES = [
  // A class with a Map, a queue and numbers: the shape of every kata's answer.
  `class Warm { private readonly seen = new Map<string, number[]>(); private head = 0;
  hit(key: string, t: number): number { const q = this.seen.get(key) ?? []; q.push(t);
  this.seen.set(key, q); while (q.length > this.head && (q[this.head] as number) <= t - 300) this.head++;
  return Math.max(0, q.length - this.head); } }
  export const w: Record<string, boolean> = { a: new Warm().hit('a', 1) > 0 };
  const n: string = 5; // a type error, reported as every learner's first one is
  `,
  // LeetCode's globals: lodash and datastructures-js declarations parsed once, here.
  `const q = new Queue<number>(); q.enqueue(1); export const x = _.sum([q.size()]);`,
];

/** How often a checker looks whether the process that started it is still there. */
const PARENT_POLL_MS = 250;
/** Build failures are not the learner's business: a slower check is all they cost. */
const BUILD_TIMEOUT_MS = 120_000;
/** A build older than this that left its lock behind is dead: the lock is taken over. */
const STALE_LOCK_MS = 180_000;

/** The real node_modules holding TypeScript: copies of the repo link theirs to it, and share this. */
function cacheDirOf(typescript: string): string {
  let real = typescript;
  try {
    real = realpathSync(typescript);
  } catch {
    // as given
  }
  // …/node_modules/typescript/lib/typescript.js
  return cacheDirIn(path.dirname(path.dirname(path.dirname(real))));
}

/**
 * The checker's sources, not their text as a loader compiled them: `grade` (bundled by esbuild),
 * tsx and vitest each print serveTypeChecks differently, and any one build serves them all.
 */
const SOURCES = [
  ...['server.ts', 'snapshot.ts'].map((name) =>
    path.join(REPO_ROOT, 'harness', 'judge', 'typecheck', name),
  ),
  // The checker reads files with its readOpened.
  path.join(REPO_ROOT, 'harness', 'read-file.ts'),
];

/** The sources' hashes, read once: they do not change under a running process. */
let sourcesHash: string[] | undefined;

/** Node, TypeScript, the checker and its setup (not where the repo is): another of any is another snapshot. */
export function snapshotFile(setup: Setup): string {
  let stamp = '';
  try {
    const stat = statSync(setup.typescript);
    stamp = `${stat.size}:${stat.mtimeMs}`;
  } catch {
    // no TypeScript: nothing will be built
  }
  sourcesHash ??= SOURCES.map((file) => {
    try {
      return sha256(readFileSync(file, 'utf8'));
    } catch {
      return file;
    }
  });
  // Where the repo is (root, globalsFile, codeCache) and the priority are given at start, not built in.
  const built = [setup.typescript, setup.globalNames, setup.realmDeclarations, setup.options];
  const key = sha256(
    JSON.stringify([process.version, process.arch, stamp, built, sourcesHash, WARM_UP_FILES]),
  ).slice(0, 16);
  return path.join(cacheDirOf(setup.typescript), `typecheck-${key}.snapshot`);
}

/** The builder's script: TypeScript loaded, the checker served and warmed, then snapshotted. */
function entrySource(setup: Setup, serveSource: string): string {
  const warm = { ...setup, yieldCpu: false };
  return `'use strict';
const v8 = require('node:v8');
const fs = require('node:fs');
const path = require('node:path');
const __name = (target, value) => Object.defineProperty(target, 'name', { value, configurable: true });
const setup = ${JSON.stringify(warm)};
const serve = (${serveSource});
// Evaluated, not required: a snapshot's builder may only require Node's own modules.
const tsModule = { exports: {} };
new Function('exports', 'require', 'module', '__filename', '__dirname',
  fs.readFileSync(setup.typescript, 'utf8'))(tsModule.exports, require, tsModule, setup.typescript, path.dirname(setup.typescript));
const ts = tsModule.exports;
const load = (id) => (id === setup.typescript ? ts : require(id));
// One registry for the warm-up and for every check after: its parsed library is what is kept.
const registry = ts.createDocumentRegistry();
let warmUp;
serve({ on: (_, listener) => { warmUp = listener; }, postMessage: () => {} }, load, setup, () => {}, registry);
${JSON.stringify(WARM_UP_FILES)}.forEach((text, i) =>
  warmUp({ id: i, file: path.join(setup.root, '.typecheck', 'warm-' + i + '.ts'), text, home: undefined }));
v8.startupSnapshot.setDeserializeMainFunction(() => {
  // Should the process that asked die mid-check (SIGTERM, kill -9), this one must not live on: its
  // main thread may be deep in a check for a long while, so a thread of its own watches the parent.
  const { Worker } = require('node:worker_threads');
  new Worker('const parent = ' + process.ppid + '; setInterval(() => { ' +
    "if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL'); }, ${PARENT_POLL_MS});",
    { eval: true, execArgv: [] }).unref();
  // The first line is the setup; each line after it a check, answered by a line on stdout.
  const lines = require('node:readline').createInterface({ input: process.stdin });
  let check;
  lines.once('line', (first) => {
    const port = {
      on: (_, listener) => { check = listener; },
      postMessage: (reply) => process.stdout.write(JSON.stringify(reply) + '\\n'),
    };
    serve(port, load, JSON.parse(first), () => {}, registry);
    lines.on('line', (line) => check(JSON.parse(line)));
  });
  // The process that asked is gone, or done: so is this one.
  lines.on('close', () => process.exit(0));
});
`;
}

/** What a child process's environment must not pass on: loaders and flags of whoever started it. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return env;
}

/**
 * Builds the snapshot unless it exists or another process is building it; resolves whether it
 * exists afterwards. The file appears whole or not at all.
 */
export function buildCheckerSnapshot(setup: Setup, serveSource: string): Promise<boolean> {
  const blob = snapshotFile(setup);
  if (existsSync(blob)) return Promise.resolve(true);
  const dir = path.dirname(blob);
  const lock = `${blob}.lock`;
  try {
    mkdirSync(dir, { recursive: true });
    const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Infinity);
    if (age > STALE_LOCK_MS) rmSync(lock, { force: true });
    closeSync(openSync(lock, 'wx'));
  } catch {
    return Promise.resolve(false); // someone else is building it, or nothing can be written here
  }
  const entry = `${blob}.${process.pid}.cjs`;
  const building = `${blob}.${process.pid}.tmp`;
  const cleanUp = (): void => {
    for (const file of [entry, building, lock]) rmSync(file, { force: true });
  };
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      writeFileSync(entry, entrySource(setup, serveSource));
      child = spawn(process.execPath, ['--snapshot-blob', building, '--build-snapshot', entry], {
        stdio: 'ignore',
        env: cleanEnv(),
        timeout: BUILD_TIMEOUT_MS,
      });
    } catch {
      cleanUp();
      resolve(false);
      return;
    }
    child.on('error', () => {
      cleanUp();
      resolve(false);
    });
    child.on('exit', (code) => {
      try {
        if (code === 0) renameSync(building, blob);
      } catch {
        // not kept: the next process tries again
      }
      cleanUp();
      resolve(existsSync(blob));
    });
  });
}

/** Gone, so that the next process builds it again (Node refused it: another build of Node, say). */
export function discardSnapshot(blob: string): void {
  rmSync(blob, { force: true });
}

/**
 * A checker process started from the snapshot, given the setup for this repo; undefined without a
 * snapshot. Checks go to its stdin and answers come from its stdout, one JSON line each.
 */
export function spawnSnapshotChecker(
  setup: Setup,
): { child: ChildProcess; blob: string } | undefined {
  const blob = snapshotFile(setup);
  if (!existsSync(blob)) return undefined;
  const child = spawn(process.execPath, ['--snapshot-blob', blob], {
    stdio: ['pipe', 'pipe', 'ignore'],
    env: cleanEnv(),
  });
  child.stdin?.write(`${JSON.stringify(setup)}\n`);
  return { child, blob };
}
