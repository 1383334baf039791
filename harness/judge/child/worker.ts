// The child process's side of the judge (started by main.ts). One process serves problem after problem, each in a fresh
// vm context of its own (its own globals, so one problem's code cannot disturb another's), which costs
// a few milliseconds where a new process costs ~90 ms. The parent holds the clock and the kill switch:
// when learner code hangs, exhausts memory or kills the process, the parent starts another one.
import { readFileSync } from 'node:fs';
import { createRequire, SourceMap } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import type { CaseResult } from '../outcome.ts';
import type { AnyClass } from '../../suite.ts';
import type { ContextRunner } from './in-context.ts';
import {
  LEARNER_GLOBAL,
  RUNNER_GLOBAL,
  type ChildMessage,
  type OpenRequest,
  type ParentMessage,
} from './protocol.ts';
import { learnerStack } from './stack.ts';

/**
 * Names that code in a context reads from its global object. A vm context's global answers through an
 * interceptor, ~150 ns a lookup (a scale case makes millions), so scripts run inside a function that
 * binds each of them to a local once.
 */
const CONTEXT_GLOBALS = [
  'Object',
  'Function',
  'Array',
  'Number',
  'Boolean',
  'String',
  'Symbol',
  'BigInt',
  'Math',
  'JSON',
  'Reflect',
  'Proxy',
  'Date',
  'RegExp',
  'Promise',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'WeakRef',
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'EvalError',
  'URIError',
  'AggregateError',
  'ArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
  'Intl',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'NaN',
  'Infinity',
  'console',
  'process',
  'performance',
  'require',
  'Buffer',
  'structuredClone',
  'queueMicrotask',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'setImmediate',
  'clearImmediate',
  'gc',
];
const PROLOGUE = `(function(){"use strict";const ${CONTEXT_GLOBALS.map((name) => `${name}=globalThis.${name}`).join(',')};`;

/** Wraps a script so its global lookups are local; `exportName` is copied back to the global. */
function inLocalScope(code: string, exportName?: string): string {
  const handOver = exportName ? `globalThis.${exportName}=${exportName};` : '';
  return `${PROLOGUE}${code}\n;${handOver}})();`;
}

function send(message: ChildMessage): void {
  process.send?.(message);
}

/** Rewrites `bundle:line:column` in a stack to the learner's own file, line and column. */
function stackMapper(bundle: string, code: string): (stack: string) => string {
  const match = /\/\/# sourceMappingURL=data:application\/json;base64,(\S+)\s*$/.exec(code);
  if (!match) return (stack) => stack;
  const map = new SourceMap(JSON.parse(Buffer.from(match[1] as string, 'base64').toString('utf8')));
  const escaped = bundle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return (stack) =>
    stack.replace(
      new RegExp(`${escaped}:(\\d+):(\\d+)`, 'g'),
      (whole, line: string, column: string) => {
        const entry = map.findEntry(Number(line) - 1, Number(column) - 1) as {
          originalSource?: string;
          originalLine?: number;
          originalColumn?: number;
        };
        if (entry.originalSource === undefined || entry.originalLine === undefined) return whole;
        const source = path.resolve(path.dirname(bundle), entry.originalSource);
        return `${source}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}`;
      },
    );
}

/** One problem being judged: its context, the timers its code started, and the learner's class. */
class Problem {
  readonly context: vm.Context;
  private readonly timers = new Set<NodeJS.Timeout | NodeJS.Immediate>();
  readonly runner: ContextRunner;
  learner: AnyClass | undefined;
  mapStack: (stack: string) => string = (stack) => stack;

  constructor(readonly request: OpenRequest) {
    this.context = vm.createContext(this.globals());
    const code = readFileSync(request.runner, 'utf8');
    new vm.Script(inLocalScope(code), { filename: request.runner }).runInContext(this.context);
    this.runner = this.context[RUNNER_GLOBAL] as ContextRunner;
    this.guardExit();
  }

  /** What code in the context may use besides the language's own built-ins. */
  private globals(): Record<string, unknown> {
    const track =
      <A extends unknown[], T extends NodeJS.Timeout | NodeJS.Immediate>(
        start: (...args: A) => T,
      ) =>
      (...args: A): T => {
        const timer = start(...args);
        this.timers.add(timer);
        return timer;
      };
    return {
      console,
      process,
      require: createRequire(this.request.learnerFile),
      Buffer,
      URL,
      URLSearchParams,
      TextEncoder,
      TextDecoder,
      AbortController,
      performance,
      structuredClone,
      queueMicrotask,
      setTimeout: track(setTimeout),
      setInterval: track(setInterval),
      setImmediate: track(setImmediate),
      clearTimeout,
      clearInterval,
      clearImmediate,
      gc: (globalThis as { gc?: () => void }).gc,
    };
  }

  /** Makes process.exit() an ordinary exception of this context, so it shows up with a stack. */
  private guardExit(): void {
    const ContextError = vm.runInContext('Error', this.context) as ErrorConstructor;
    process.exit = ((code?: number) => {
      const error = new ContextError(
        `process.exit(${code ?? ''}) was called; a solution must return instead`,
      );
      error.name = 'ProcessExitError';
      throw error;
    }) as typeof process.exit;
  }

  load(): ChildMessage {
    const { learnerBundle, learnerFile, className } = this.request;
    const code = readFileSync(learnerBundle, 'utf8');
    this.mapStack = stackMapper(learnerBundle, code);
    try {
      new vm.Script(inLocalScope(code, LEARNER_GLOBAL), { filename: learnerBundle }).runInContext(
        this.context,
      );
    } catch (error) {
      const err = error as Error;
      return {
        type: 'load-failed',
        status: 'runtime-error',
        message: `loading the solution threw ${err?.name}: ${err?.message}`,
        stack: learnerStack(err, learnerFile, this.mapStack),
      };
    }
    const exports = (this.context[LEARNER_GLOBAL] ?? {}) as Record<string, unknown>;
    const learner = exports[className];
    if (typeof learner !== 'function') {
      const found = Object.keys(exports);
      return {
        type: 'load-failed',
        status: 'compile-error',
        message:
          `${learnerFile} must export a class named ${className}` +
          (found.length > 0 ? ` (it exports: ${found.join(', ')})` : ' (it exports nothing)'),
      };
    }
    this.learner = learner as AnyClass;
    return { type: 'ready' };
  }

  run(index: number): CaseResult {
    const { className, learnerFile } = this.request;
    return this.runner.run(index, this.learner as AnyClass, className, learnerFile, this.mapStack);
  }

  close(): void {
    for (const timer of this.timers) {
      clearTimeout(timer as NodeJS.Timeout);
      clearImmediate(timer as NodeJS.Immediate);
    }
  }
}

let current: Problem | undefined;

/** Answers one message from the parent. */
export function handleMessage(message: ParentMessage): void {
  switch (message.type) {
    case 'open':
      current?.close();
      current = new Problem(message);
      send({ type: 'cases', cases: current.runner.cases });
      break;
    case 'load':
      if (current) send(current.load());
      break;
    case 'run':
      if (current)
        send({ type: 'result', index: message.index, result: current.run(message.index) });
      break;
    case 'close':
      current?.close();
      current = undefined;
      break;
  }
}

/** Makes this process the judge's child: it serves the parent until the parent kills it. */
export function serveParent(): void {
  process.on('message', handleMessage);
  // An error thrown later from a learner's timer or promise must not take down the child and, with
  // it, whichever problem happens to be running: it is printed, and the output shows it.
  process.on('uncaughtException', (error) => console.error('uncaught:', error));
  process.on('unhandledRejection', (reason) => console.error('unhandled rejection:', reason));
}
