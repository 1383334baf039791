// What the type checker is started with: LeetCode's compiler options, the declarations of what the
// learner's realm has, where TypeScript and V8's cache of its compiled code are. Nothing here starts
// anything.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PROBLEMS_DIR, REPO_ROOT, SCRATCH_DIR } from '../../paths.ts';
import { LIBRARIES } from '../leetcode-globals.ts';
import type { Setup } from './server.ts';
import { sha256 } from '../verified-file.ts';

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
 * What the learner's realm has beyond ES2024 (see harness/sandbox/bridge/), declared as the DOM's
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

/** TypeScript's own file, or undefined when it is not installed (a production-only install). */
export function typescriptPath(): string | undefined {
  try {
    return createRequire(path.join(REPO_ROOT, 'package.json')).resolve('typescript');
  } catch {
    return undefined;
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
