// Type errors, as LeetCode reports them. esbuild only strips types (compile.ts), so on its own the
// judge would run `const n: string = 5`; LeetCode compiles TypeScript with tsc and calls that a
// Compile Error. Here the learner's file is checked with LeetCode's compiler options by one
// TypeScript language service per process, kept in a worker thread: started once (a second or
// two), then incremental, so a save costs tens of milliseconds and the judge's own thread never
// waits on the checker. Without the `typescript` package (a production-only install) nothing is
// checked and the judge works as before.
import { mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import { PROBLEMS_DIR, REPO_ROOT } from '../paths.ts';
import { readOpened, readRegularFile, readSolution } from '../read-file.ts';
import { readVerified, SCRATCH_DIR, sha256, writeVerified } from './compile.ts';
import { LIBRARIES } from './leetcode-globals.ts';
import {
  buildCheckerSnapshot,
  discardSnapshot,
  spawnSnapshotChecker,
} from './typecheck-snapshot.ts';

/**
 * LeetCode's options (`tsc --alwaysStrict --strictBindCallApply --strictFunctionTypes --target
 * ES2024`), then what this repository's files need. tsconfig.json spelling.
 */
export const LEETCODE_COMPILER_OPTIONS = {
  // TypeScript 6 is strict unless told otherwise; LeetCode turns on these three checks only, so
  // implicit any (a JavaScript-style paste) and possibly-null values compile.
  strict: false,
  alwaysStrict: true,
  strictBindCallApply: true,
  strictFunctionTypes: true,
  target: 'es2024',
  // The language alone. LeetCode's tsc, given no --lib, also has the DOM's declarations; the judge
  // declares only what of them its realm has (REALM_DECLARATIONS), which costs a third less time.
  lib: ['es2024'],
  // The design track's stubs import types from problems/rate-limiter-contract.ts, extension and all.
  module: 'esnext',
  moduleResolution: 'bundler',
  allowImportingTsExtensions: true,
  noEmit: true,
  skipLibCheck: true,
  // No @types/node: LeetCode's code has no `process` or `require`, and neither has the judge's realm.
  types: [] as string[],
};

/** LeetCode's global libraries (lodash's `_`, the datastructures-js classes), declared for tsc. */
export const GLOBALS_FILE = path.join(PROBLEMS_DIR, 'leetcode-globals.d.ts');

/**
 * What the learner's realm has beyond ES2024 (see child/inside-realm.ts), declared as the DOM's
 * lib declares it on LeetCode: `console` above all, and the timers (which the realm refuses at
 * run time, as a runtime error, rather than at compile time).
 */
const REALM_DECLARATIONS = `interface Console {
  assert(condition?: boolean, ...data: any[]): void;
  clear(): void;
  count(label?: string): void;
  countReset(label?: string): void;
  debug(...data: any[]): void;
  dir(item?: any, options?: any): void;
  dirxml(...data: any[]): void;
  error(...data: any[]): void;
  group(...data: any[]): void;
  groupCollapsed(...data: any[]): void;
  groupEnd(): void;
  info(...data: any[]): void;
  log(...data: any[]): void;
  table(tabularData?: any, properties?: string[]): void;
  time(label?: string): void;
  timeEnd(label?: string): void;
  timeLog(label?: string, ...data: any[]): void;
  timeStamp(label?: string): void;
  trace(...data: any[]): void;
  warn(...data: any[]): void;
}
declare var console: Console;
declare function setTimeout(handler: string | Function, timeout?: number, ...args: any[]): number;
declare function clearTimeout(id: number | undefined): void;
declare function setInterval(handler: string | Function, timeout?: number, ...args: any[]): number;
declare function clearInterval(id: number | undefined): void;
declare function queueMicrotask(callback: () => void): void;
`;

/** A compile error message lists this many type errors at most. */
const MAX_SHOWN = 10;
/** A worker that answers nothing for this long is stopped (and another started for what comes next). */
const CHECK_TIMEOUT_MS = 20_000;

export interface TypeDiagnostic {
  /** The file as given. */
  file: string;
  /** From 1, as editors count. */
  line: number;
  column: number;
  /** TypeScript's number for the error (TS2322). */
  code: number;
  /** TypeScript's own text; the lines of a chain of reasons are indented under the first. */
  message: string;
  /** The source line the error is on. */
  lineText: string;
}

export interface Setup {
  typescript: string;
  root: string;
  globalsFile: string;
  /** The names GLOBALS_FILE declares: a file that names none of them is checked without it. */
  globalNames: string[];
  realmDeclarations: string;
  options: Record<string, unknown>;
  /** Lower the worker thread's priority (Linux only: elsewhere it would be the whole process's). */
  yieldCpu: boolean;
  /** Where V8's compiled code of TypeScript is kept between processes (see codeCachedLoader). */
  codeCache: string;
}

export interface CheckRequest {
  id: number;
  file: string;
  /** The file's text as the judge read it: the answer is about exactly this text. */
  text: string;
  home: string | undefined;
}

export interface CheckAnswer {
  errors: Omit<TypeDiagnostic, 'file'>[];
  /** The program's other files outside node_modules (the contract, the globals): the answer rests on them too. */
  inputs: string[];
  /** TypeScript crashed: no errors are reported, and the answer is not one to keep. */
  unkept?: true;
}

export type CheckReply = ({ id: number } & CheckAnswer) | { id: number; unavailable: string };

export interface MessagePortLike {
  on(event: 'message', listener: (request: CheckRequest) => void): void;
  postMessage(reply: CheckReply): void;
}

/**
 * The worker's program. It runs from its own source text (a worker is given code, not this module),
 * so it uses nothing from outside itself: what it needs comes through `load`, `setup` and `read`.
 * (Exported for the tests, which also run it in their own thread.)
 */
export function serveTypeChecks(
  port: MessagePortLike,
  load: (id: string) => unknown,
  setup: Setup,
  afterFirstCheck: () => void = () => {},
  /** Parsed files kept from an earlier language service (typecheck-snapshot.ts's warm-up). */
  registry?: unknown,
  /**
   * read-file.ts's readOpened, run from its text (see CHECKER_SOURCE): every file the program
   * reads besides the learner's (a `/// <reference path>` may name a pipe or /dev/zero) is read
   * only if it is a regular file of a sane size. Without it (a test's own checker), TypeScript's.
   */
  read?: typeof readOpened,
): void {
  let ts: typeof import('typescript');
  try {
    ts = load(setup.typescript) as typeof import('typescript');
  } catch (error) {
    const why = String(error);
    port.on('message', (request) => port.postMessage({ id: request.id, unavailable: why }));
    return;
  }
  if (setup.yieldCpu) {
    try {
      // The judge's own work comes first: cases are timed, a check is not.
      (load('node:os') as typeof import('node:os')).setPriority(10);
    } catch {
      // not allowed here: run as we are
    }
  }
  const fs = load('node:fs') as typeof import('node:fs');
  const nodePath = load('node:path') as typeof import('node:path');
  const hash = (load('node:crypto') as typeof import('node:crypto')).createHash;
  const options = ts.convertCompilerOptionsFromJson(setup.options, setup.root).options;
  /** TypeScript's own libraries are the largest files it reads, a few megabytes at most. */
  const maxRead = 32 * 1024 * 1024;
  /** A file's text, decoded as TypeScript decodes it (by its byte order mark); else undefined. */
  const readText = (file: string): string | undefined => {
    if (read === undefined) return ts.sys.readFile(file);
    let opened: ReturnType<typeof readOpened>;
    try {
      opened = read(fs, file, maxRead);
    } catch {
      return undefined;
    }
    if (opened.kind !== 'bytes') return undefined;
    const data = opened.data;
    if (data[0] === 0xfe && data[1] === 0xff) {
      return Buffer.from(data.subarray(2, data.length - (data.length % 2)))
        .swap16()
        .toString('utf16le');
    }
    if (data[0] === 0xff && data[1] === 0xfe) return data.toString('utf16le', 2);
    if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) return data.toString('utf8', 3);
    return data.toString('utf8');
  };
  // The file being checked is the one root beside the globals (learner files are often scripts,
  // whose declarations are global: two in one program would clash), under a name that never
  // changes: TypeScript then keeps the rest of the program (libraries, their imports resolved) from
  // one check to the next, whichever file it is. Its imports resolve from where the file really is.
  // (A name only: nothing is written there.)
  const slot = `${setup.root}/.typecheck/solution.ts`;
  const realm = `${setup.root}/.typecheck/realm.d.ts`;
  const virtual = new Map([[realm, setup.realmDeclarations]]);
  // The libraries' declarations are most of what a cold start parses: they come in only for a
  // file that names one of their globals (anywhere, even in a comment), as their code does.
  const namesGlobal = new RegExp(`(?<![\\w$])(?:${setup.globalNames.join('|')})(?![\\w$])`);
  let withGlobals = false;
  let learner = '';
  let learnerText = '';
  let learnerVersion = '';
  // Where the file would sit as the learner's own (the problem's folder): a relative import that
  // does not resolve from a copy kept elsewhere is resolved from there.
  let home: string | undefined;
  const versions = new Map<string, string>();
  const cache = ts.createModuleResolutionCache(setup.root, (name) => name, options);
  const host: import('typescript').LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => [
      realm,
      ...(withGlobals ? [setup.globalsFile] : []),
      ...(learner ? [slot] : []),
    ],
    getScriptVersion: (file) => {
      if (file === slot) return learnerVersion;
      if (virtual.has(file)) return '1';
      let version = versions.get(file);
      if (version === undefined) {
        try {
          const stat = fs.statSync(file);
          version = `${stat.mtimeMs}:${stat.size}`;
        } catch {
          version = 'missing';
        }
        // Packages (TypeScript's libraries, lodash's types) do not change under a process; the
        // few other files a learner's file imports may, and are looked at again on every check.
        if (file.includes('/node_modules/')) versions.set(file, version);
      }
      return version;
    },
    getScriptSnapshot: (file) => {
      const text = file === slot ? learnerText : (virtual.get(file) ?? readText(file));
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => setup.root,
    getDefaultLibFileName: (compilerOptions) => ts.getDefaultLibFilePath(compilerOptions),
    fileExists: (file) => file === slot || virtual.has(file) || ts.sys.fileExists(file),
    readFile: (file) => (file === slot ? learnerText : (virtual.get(file) ?? readText(file))),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
    resolveModuleNameLiterals: (
      literals,
      containingFile,
      redirected,
      compilerOptions,
      sourceFile,
    ) =>
      literals.map((literal) => {
        const mode = ts.getModeForUsageLocation(sourceFile, literal, compilerOptions);
        const resolve = (
          from: string,
        ): import('typescript').ResolvedModuleWithFailedLookupLocations =>
          ts.resolveModuleName(literal.text, from, compilerOptions, host, cache, redirected, mode);
        if (containingFile !== slot) return resolve(containingFile);
        const found = resolve(learner);
        if (found.resolvedModule || !home) return found;
        const fromHome = resolve(nodePath.join(home, nodePath.basename(learner)));
        return fromHome.resolvedModule ? fromHome : found;
      }),
  };
  const service = ts.createLanguageService(
    host,
    (registry as import('typescript').DocumentRegistry | undefined) ?? ts.createDocumentRegistry(),
  );

  const inputsOf = (): string[] =>
    (service.getProgram()?.getSourceFiles() ?? [])
      .map((source) => source.fileName)
      .filter((name) => name !== slot && !virtual.has(name) && !name.includes('/node_modules/'));
  const check = (request: CheckRequest): CheckAnswer => {
    const text = request.text;
    learner = nodePath.resolve(request.file).split(nodePath.sep).join('/');
    learnerText = text;
    home = request.home;
    withGlobals = namesGlobal.test(text);
    // Where it is counts too: its imports resolve from there.
    learnerVersion = hash('sha1').update(`${learner}\0${home}\0${text}`).digest('hex');
    const lines = text.split(/\r?\n/);
    const errors = [
      ...service.getSyntacticDiagnostics(slot),
      ...service.getSemanticDiagnostics(slot),
    ]
      .filter(
        (d) =>
          d.category === ts.DiagnosticCategory.Error &&
          d.file?.fileName === slot &&
          d.start !== undefined,
      )
      .map((d) => {
        const at = (d.file as import('typescript').SourceFile).getLineAndCharacterOfPosition(
          d.start as number,
        );
        return {
          line: at.line + 1,
          column: at.character + 1,
          code: d.code,
          message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
          lineText: lines[at.line] ?? '',
        };
      });
    return { errors, inputs: inputsOf() };
  };
  const checkSafely = (request: CheckRequest): CheckAnswer => {
    try {
      return check(request);
    } catch {
      // A crash inside TypeScript is no reason to refuse the learner's code.
      return { errors: [], inputs: [], unkept: true };
    }
  };
  let checked = false;
  port.on('message', (request) => {
    const answer = checkSafely(request);
    // Before the answer, which may be the last thing this process waits for.
    if (!checked) afterFirstCheck();
    checked = true;
    port.postMessage({ id: request.id, ...answer });
  });
}

/**
 * A `require` for the worker that loads TypeScript with V8's compiled code from an earlier process:
 * compiling typescript.js (9 MB) is most of a cold start's first ~0.4 s. The code is saved once a
 * check has run, so that it holds the parser and checker functions compiled lazily too. V8 refuses
 * code it did not make for this source, version and flags; the file's hash guards it on disk. Like
 * serveTypeChecks, it runs from its own text and uses nothing from outside itself.
 */
export function codeCachedLoader(
  load: NodeJS.Require,
  setup: Pick<Setup, 'typescript' | 'codeCache'>,
): { load: (id: string) => unknown; save: () => void } {
  const fs = load('node:fs') as typeof import('node:fs');
  const vm = load('node:vm') as typeof import('node:vm');
  const { Module, createRequire } = load('node:module') as typeof import('node:module') & {
    Module: { wrap(source: string): string };
  };
  const crypto = load('node:crypto') as typeof import('node:crypto');
  const digest = (data: Buffer): string => crypto.createHash('sha256').update(data).digest('hex');
  let script: import('node:vm').Script | undefined;
  let reused = false;
  const cached = (): Buffer | undefined => {
    try {
      const data = fs.readFileSync(setup.codeCache);
      return fs.readFileSync(`${setup.codeCache}.sum`, 'utf8') === digest(data) ? data : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    load: (id) => {
      if (id !== setup.typescript) return load(id);
      const cachedData = cached();
      script = new vm.Script(Module.wrap(fs.readFileSync(id, 'utf8')), {
        filename: id,
        cachedData,
      });
      reused = cachedData !== undefined && !script.cachedDataRejected;
      const module = { exports: {} as unknown };
      const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
      wrapper.call(
        module.exports,
        module.exports,
        createRequire(id),
        module,
        id,
        id.slice(0, id.lastIndexOf('/')),
      );
      return module.exports;
    },
    save: () => {
      if (script === undefined || reused) return;
      try {
        const data = script.createCachedData();
        const temp = `${setup.codeCache}.${process.pid}.tmp`;
        fs.writeFileSync(temp, data);
        fs.writeFileSync(`${temp}.sum`, digest(data));
        fs.renameSync(`${temp}.sum`, `${setup.codeCache}.sum`);
        fs.renameSync(temp, setup.codeCache);
      } catch {
        // Not saved: the next start compiles TypeScript again, as it would without a cache.
      }
    },
  };
}

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

function typescriptPath(): string | undefined {
  try {
    return createRequire(path.join(REPO_ROOT, 'package.json')).resolve('typescript');
  } catch {
    return undefined;
  }
}

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

/** What the worker is started with. */
export function checkerSetup(typescript: string, yieldCpu: boolean): Setup {
  return {
    typescript,
    root: REPO_ROOT,
    globalsFile: GLOBALS_FILE.split(path.sep).join('/'),
    globalNames: LIBRARIES.flatMap((library) => library.globals),
    realmDeclarations: REALM_DECLARATIONS,
    options: LEETCODE_COMPILER_OPTIONS,
    yieldCpu: yieldCpu && process.platform === 'linux',
    codeCache: codeCacheFile(typescript),
  };
}

/** Named by Node's version and TypeScript's file: another of either never meets this cache. */
function codeCacheFile(typescript: string): string {
  let stamp = '';
  try {
    const stat = statSync(typescript);
    stamp = `${stat.size}:${stat.mtimeMs}`;
  } catch {
    // no TypeScript: the worker will say so
  }
  const key = sha256(`${process.version}\0${process.arch}\0${typescript}\0${stamp}`).slice(0, 16);
  return path.join(SCRATCH_DIR, `typescript-${key}.v8cache`);
}

function startChecker(yieldCpu = false): Checker | null {
  const typescript = typescriptPath();
  if (typescript === undefined) return null;
  const setup = checkerSetup(typescript, yieldCpu);
  return startSnapshotChecker(setup) ?? startWorkerChecker(setup);
}

/**
 * The checker's program as source text (see serveTypeChecks), with the one safe way to read a file
 * passed in: a function of serveTypeChecks' first five parameters, which the worker and the
 * snapshot run.
 */
export const CHECKER_SOURCE =
  `((read) => (port, load, setup, afterFirstCheck, registry) =>\n` +
  `  (${serveTypeChecks.toString()})(port, load, setup, afterFirstCheck, registry, read))` +
  `(${readOpened.toString()})`;

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
 * A checker in a process started from the snapshot (typecheck-snapshot.ts), if there is one. If
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

export interface CheckOptions {
  /** The problem's folder: relative imports that do not resolve from the file resolve from there. */
  home?: string;
  /** Stops waiting (the answer is then undefined); the check itself runs to its end in the worker. */
  signal?: AbortSignal;
  /** Nobody waits for the answer yet (a warm-up): the process may end meanwhile. */
  background?: boolean;
}

/**
 * Answers are kept by content in node_modules/.cache (as bundles are): the learner's text, where it
 * is, the checker's setup and the lock file's packages make the key, and the other files the
 * program read (the contract, the globals) are checked against their hashes when an answer is
 * reused. So a grade of files checked before starts no TypeScript at all.
 */
const ANSWERS_DIR = path.join(SCRATCH_DIR, 'typecheck');
/** Change when what an answer holds changes. */
const ANSWER_FORMAT = 1;

/** The lock file and the files a solution imports are far smaller; a larger one is not hashed. */
const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** The hash of a file's text; undefined when it is not a regular file of a sane size (a pipe). */
function fileHash(file: string): string | undefined {
  try {
    const read = readRegularFile(file, MAX_INPUT_BYTES);
    return read.kind === 'text' ? sha256(read.text) : undefined;
  } catch {
    return undefined;
  }
}

let setupKey: string | undefined;
/** What every answer of this checkout depends on besides the file: options, declarations, packages. */
function checkerKey(): string {
  setupKey ??= sha256(
    JSON.stringify([
      ANSWER_FORMAT,
      checkerSetup('', false),
      fileHash(path.join(REPO_ROOT, 'package-lock.json')) ?? '',
    ]),
  );
  return setupKey;
}

interface KeptAnswer {
  errors: Omit<TypeDiagnostic, 'file'>[];
  inputs: Array<[file: string, hash: string]>;
}

function answerFile(file: string, text: string, home: string | undefined): string {
  const key = sha256(`${checkerKey()}\0${path.resolve(file)}\0${home ?? ''}\0${text}`);
  return path.join(ANSWERS_DIR, `${key.slice(0, 32)}.json`);
}

function keptAnswer(where: string): KeptAnswer['errors'] | undefined {
  const text = readVerified(where);
  if (text === undefined) return undefined;
  try {
    const kept = JSON.parse(text) as KeptAnswer;
    return kept.inputs.every(([file, hash]) => fileHash(file) === hash) ? kept.errors : undefined;
  } catch {
    return undefined;
  }
}

function keepAnswer(where: string, answer: CheckAnswer): void {
  if (answer.unkept) return;
  const inputs: KeptAnswer['inputs'] = [];
  for (const file of answer.inputs) {
    const hash = fileHash(file);
    if (hash === undefined) return; // gone already: nothing worth keeping
    inputs.push([file, hash]);
  }
  try {
    mkdirSync(ANSWERS_DIR, { recursive: true });
    writeVerified(where, JSON.stringify({ errors: answer.errors, inputs } satisfies KeptAnswer));
  } catch {
    // a cache that cannot be written costs only time
  }
}

/**
 * The type errors in the file, checked as LeetCode checks it; only errors located in the file
 * itself count. Undefined when nothing could be checked: TypeScript is not installed, or the check
 * was given up. An unreadable file has no type errors here: compiling it says why it cannot be read.
 * Checks are answered in the order they are asked for.
 */
export function checkTypes(
  file: string,
  options: CheckOptions = {},
): Promise<TypeDiagnostic[] | undefined> {
  const { signal } = options;
  // Without TypeScript nothing is checked, kept answers included: the judge works as it did.
  if (checker === undefined && typescriptPath() === undefined) checker = null;
  if (checker === null || signal?.aborted) return Promise.resolve(undefined);
  // Read as compiling reads it: a pipe, a device or a huge file is refused at once, never waited on.
  const read = readSolution(file);
  if (!read.ok) return Promise.resolve([]); // compiling it says why it cannot be read
  const text = read.text;
  const where = answerFile(file, text, options.home);
  const withFile = (errors: KeptAnswer['errors']): TypeDiagnostic[] =>
    errors.map((error) => ({ file, ...error }));
  const kept = keptAnswer(where);
  if (kept !== undefined) return Promise.resolve(withFile(kept));

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
    const request: CheckRequest = { id, file: path.resolve(file), text, home: options.home };
    current.pending.set(id, {
      request,
      awaited: !options.background,
      resolve: (answer) => {
        signal?.removeEventListener('abort', abandon);
        if (answer !== undefined) keepAnswer(where, answer);
        resolve(answer && withFile(answer.errors));
      },
    });
    if (current.watchdog === undefined) rearm(current);
    signal?.addEventListener('abort', abandon, { once: true });
    current.post(request);
  });
}

/** Type errors as a compile error message: where each is, TypeScript's text, the line it is on. */
export function formatTypeErrors(errors: TypeDiagnostic[]): string {
  const shown = errors.slice(0, MAX_SHOWN).map((error) => {
    const file = path.relative(process.cwd(), path.resolve(error.file)) || error.file;
    const message = error.message.replaceAll('\n', '\n  ');
    const source = error.lineText.trim() ? `\n    ${error.lineText.trim()}` : '';
    return `${file}:${error.line}:${error.column}: error TS${error.code}: ${message}${source}`;
  });
  const more = errors.length - shown.length;
  if (more > 0) shown.push(`… and ${more} more type error${more === 1 ? '' : 's'}`);
  return shown.join('\n');
}

/** The file's type errors as a compile error message; undefined when it has none (or none known). */
export async function typeErrorMessage(
  file: string,
  options: CheckOptions = {},
): Promise<string | undefined> {
  const errors = await checkTypes(file, options);
  return errors && errors.length > 0 ? formatTypeErrors(errors) : undefined;
}

/**
 * Starts the checker for watch mode and checks the file in the background (see typeErrorMessage).
 * Its thread runs at a lower priority (on Linux), so that a check gives way to the cases being
 * judged beside it: there the verdict's every millisecond shows, and type errors may follow.
 */
export function warmTypeChecker(
  file: string,
  options: Omit<CheckOptions, 'background'> = {},
): Promise<string | undefined> {
  if (checker === undefined) checker = startChecker(true);
  return typeErrorMessage(file, { ...options, background: true });
}

/**
 * Builds the checker's startup snapshot now (typecheck-snapshot.ts), so that no later process
 * pays TypeScript's cold start: `npm install` runs it. Resolves whether the snapshot exists.
 */
export function prepareTypeChecker(): Promise<boolean> {
  const typescript = typescriptPath();
  if (typescript === undefined) return Promise.resolve(false);
  return buildCheckerSnapshot(checkerSetup(typescript, false), CHECKER_SOURCE);
}
