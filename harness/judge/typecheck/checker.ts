// The process's one type checker, and its life: started on first need, from the snapshot when there
// is one (snapshot.ts), else in a worker thread; watched while someone waits for it; replaced when
// it dies, given up for the process when TypeScript is missing or the worker fails. It keeps
// nobody waiting when nobody asks.
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import {
  CHECKER_SOURCE,
  codeCachedLoader,
  type CheckAnswer,
  type CheckReply,
  type CheckRequest,
  type Setup,
} from './server.ts';
import { checkerSetup, typescriptPath } from './setup.ts';
import { buildCheckerSnapshot, discardSnapshot, spawnSnapshotChecker } from './snapshot.ts';

/** A worker that answers nothing for this long is stopped (and another started for what comes next). */
const CHECK_TIMEOUT_MS = 20_000;

interface Pending {
  request: CheckRequest;
  resolve: (answer: CheckAnswer | undefined) => void;
  /** Someone waits for the answer: the process stays up for it, and the watchdog watches. */
  awaited: boolean;
}

interface Checker {
  /** Sends a check to wherever this checker runs. */
  post: (request: CheckRequest) => void;
  stop: () => void;
  pending: Map<number, Pending>;
  /** Armed while an awaited check is pending; each answer rearms it. */
  watchdog?: NodeJS.Timeout;
}

/** The process's checker: undefined until first asked for, null once TypeScript proved missing. */
let checker: Checker | undefined | null;
let nextId = 0;

/**
 * Answers every check still waiting with "unknown" and stops the worker: the next check starts
 * another, unless `disable` (TypeScript is missing, or the worker failed).
 */
function dropChecker(dead: Checker, disable = false): void {
  if (checker === dead) checker = disable ? null : undefined;
  clearTimeout(dead.watchdog);
  const pending = [...dead.pending.values()];
  dead.pending.clear();
  for (const check of pending) check.resolve(undefined);
  dead.stop();
}

/**
 * A worker that answers nothing for CHECK_TIMEOUT_MS while someone waits is stuck (on some
 * pathological type): it is stopped, and those waiting get "unknown". The timer is also what keeps
 * the process up for an answer, the worker itself never does.
 */
function rearm(current: Checker): void {
  clearTimeout(current.watchdog);
  current.watchdog = undefined;
  if ([...current.pending.values()].some((check) => check.awaited)) {
    current.watchdog = setTimeout(() => dropChecker(current), CHECK_TIMEOUT_MS);
  }
}

function startChecker(yieldCpu = false): Checker | null {
  const typescript = typescriptPath();
  if (typescript === undefined) return null;
  const setup = checkerSetup(typescript, yieldCpu);
  return startSnapshotChecker(setup) ?? startWorkerChecker(setup);
}

/** What to do with an answer, whichever kind of checker gave it. */
function onReply(started: Checker, reply: CheckReply): void {
  const pending = started.pending.get(reply.id);
  started.pending.delete(reply.id);
  rearm(started);
  if ('unavailable' in reply) {
    dropChecker(started, true);
    pending?.resolve(undefined);
    return;
  }
  pending?.resolve(reply);
}

/**
 * A checker in a process started from the snapshot (snapshot.ts), if there is one. If
 * that process dies before its first answer (Node refused the snapshot), the snapshot is discarded
 * and what was asked goes to a worker instead.
 */
function startSnapshotChecker(setup: Setup): Checker | undefined {
  let spawned: ReturnType<typeof spawnSnapshotChecker>;
  try {
    spawned = spawnSnapshotChecker(setup);
  } catch {
    return undefined;
  }
  if (spawned === undefined) return undefined;
  const { child, blob } = spawned;
  let answered = false;
  let stopped = false;
  const started: Checker = {
    post: (request) => child.stdin?.write(`${JSON.stringify(request)}\n`),
    stop: () => {
      stopped = true;
      child.kill();
    },
    pending: new Map(),
  };
  if (child.stdout) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      answered = true;
      onReply(started, JSON.parse(line) as CheckReply);
    });
  }
  // A pipe closed under a write (the process died) is reported by 'exit'.
  child.stdin?.on('error', () => {});
  const died = (): void => {
    if (stopped) return;
    stopped = true;
    if (answered || checker !== started) {
      dropChecker(started);
      return;
    }
    discardSnapshot(blob);
    const worker = startWorkerChecker(setup);
    checker = worker;
    clearTimeout(started.watchdog);
    for (const [id, pending] of started.pending) {
      worker.pending.set(id, pending);
      worker.post(pending.request);
    }
    started.pending.clear();
    rearm(worker);
  };
  child.on('error', died);
  child.on('exit', died);
  // Like the worker, it keeps nobody waiting: the watchdog does while an answer is awaited.
  child.unref();
  for (const stream of [child.stdin, child.stdout]) {
    (stream as unknown as { unref?: () => void } | null)?.unref?.();
  }
  return started;
}

/** Builds the snapshot in the background for the processes after this one; this one waits for it. */
let building: Promise<boolean> | undefined;

function startWorkerChecker(setup: Setup): Checker {
  building ??= buildCheckerSnapshot(setup, CHECKER_SOURCE);
  // The function's own text, as whatever compiled this module left it: a loader that keeps function
  // names (tsx) wraps them in esbuild's __name, defined here as esbuild defines it.
  const code =
    `const { parentPort, workerData } = require('node:worker_threads');\n` +
    `const __name = (target, value) => Object.defineProperty(target, 'name', { value, configurable: true });\n` +
    `const cache = (${codeCachedLoader.toString()})(require, workerData);\n` +
    `(${CHECKER_SOURCE})(parentPort, cache.load, workerData, cache.save);\n`;
  // A script of its own, free of whatever flags or loaders started this process.
  const worker = new Worker(code, { eval: true, execArgv: [], workerData: setup });
  const started: Checker = {
    post: (request) => worker.postMessage(request),
    stop: () => void worker.terminate(),
    pending: new Map(),
  };
  worker.on('message', (reply: CheckReply) => onReply(started, reply));
  // A worker that fails (it ran out of memory, say) is not started again: this process checks no more.
  worker.on('error', () => dropChecker(started, true));
  worker.on('exit', () => dropChecker(started));
  // After the listeners: adding a 'message' listener refs the worker again.
  worker.unref();
  return started;
}

/** Whether this process can check: not once TypeScript proved missing, or its checker failed. */
export function canCheck(): boolean {
  if (checker === undefined && typescriptPath() === undefined) checker = null;
  return checker !== null;
}

/** Starts the checker now at a lower priority (watch mode), unless one runs or none can. */
export function startCheckerEarly(): void {
  if (checker === undefined) checker = startChecker(true);
}

/**
 * The checker's answer about one text, from the process's checker (started if need be). Undefined
 * when there is none, it was stopped, or `signal` gave up waiting. `awaited`: someone waits for the
 * answer (not a warm-up), so the process stays up for it and the watchdog watches.
 */
export function askChecker(
  ask: Omit<CheckRequest, 'id'>,
  awaited: boolean,
  signal?: AbortSignal,
): Promise<CheckAnswer | undefined> {
  checker ??= startChecker();
  const current = checker;
  if (current === null) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const id = (nextId += 1);
    const abandon = (): void => {
      current.pending.delete(id);
      rearm(current);
      resolve(undefined);
    };
    const request: CheckRequest = { id, ...ask };
    current.pending.set(id, {
      request,
      awaited,
      resolve: (answer) => {
        signal?.removeEventListener('abort', abandon);
        resolve(answer);
      },
    });
    if (current.watchdog === undefined) rearm(current);
    signal?.addEventListener('abort', abandon, { once: true });
    current.post(request);
  });
}
