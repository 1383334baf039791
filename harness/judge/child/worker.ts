// The child process's side of the judge (started by main.ts). One process serves problem after
// problem. Each problem's runner (suite, reference, case runner) runs in this process's own realm;
// the learner's code runs in a fresh realm of its own that holds nothing of the judge (realm.ts).
// The parent holds the kill switch: when learner code hangs or exhausts memory, it starts another.
import { createRequire, SourceMap } from 'node:module';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import type { CaseResult } from '../outcome.ts';
import type { LearnerError } from './port.ts';
import { createRunner, type ContextRunner, type RunnerScript } from './runner.ts';
import { undeclaredAdvice } from './run-case.ts';
import {
  REDIS_PREFIX_GLOBAL,
  RUNNER_GLOBAL,
  type ChildMessage,
  type OpenRequest,
  type ParentMessage,
} from './protocol.ts';
import { guardIntrinsics } from './intrinsics.ts';
import { LearnerRealm } from './realm.ts';
import { RedisFacadeHost } from '../../redis/facade-host.ts';
import { AdminConnection, RedisCheckError, type Settled } from '../../redis/admin.ts';
import { ServerRealms } from './server-realms.ts';
import { learnerStack } from './stack.ts';
import { readFileSync } from 'node:fs';

/** The name the learner's bundle runs under: stack frames that carry it are the learner's. */
const BUNDLE_NAME = 'learner-bundle.js';

// Captured before anything else runs, though learner code cannot reach this realm anyway.
const sendToParent = process.send?.bind(process);
function send(message: ChildMessage): void {
  sendToParent?.(message);
}

/** Rewrites `learner-bundle.js:line:column` in a stack to the learner's own file, line and column. */
function stackMapper(code: string, learnerFile: string): (stack: string) => string {
  const match = /\/\/# sourceMappingURL=data:application\/json;base64,(\S+)\s*$/.exec(code);
  if (!match) return (stack) => stack;
  const map = new SourceMap(JSON.parse(Buffer.from(match[1] as string, 'base64').toString('utf8')));
  return (stack) =>
    stack.replace(/learner-bundle\.js:(\d+):(\d+)/g, (whole, line: string, column: string) => {
      const entry = map.findEntry(Number(line) - 1, Number(column) - 1) as {
        originalLine?: number;
        originalColumn?: number;
      };
      if (entry.originalLine === undefined) return whole;
      return `${learnerFile}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}`;
    });
}

/** One problem being judged: its runner, and the learner's realm. */
class Problem {
  readonly runner: ContextRunner;
  private readonly realm: LearnerRealm;
  private loaded = false;
  mapStack: (stack: string) => string = (stack) => stack;

  constructor(readonly request: OpenRequest) {
    const code = readFileSync(request.runner, 'utf8');
    // The runner is the judge's own code: it runs in this realm, with Node's require for its imports.
    // Strict, like all judge code: a stack's call sites then never hand out a judge function or `this`.
    // A Script, not compileFunction: V8 caches a script's compilation by its source, so a child
    // that opens the same problem again (watch mode) does not compile its runner again.
    const run = new vm.Script(`(function (require) {"use strict";${code}\n})`, {
      filename: request.runner,
    }).runInThisContext() as (require: NodeJS.Require) => void;
    const holder = globalThis as Record<string, unknown>;
    // Set before the suite runs, since fixed cases build their keys as it loads; read by redisKey.
    holder[REDIS_PREFIX_GLOBAL] = request.redisKeyPrefix ?? '';
    run(createRequire(request.runner));
    const { suite, wrongModules } = holder[RUNNER_GLOBAL] as RunnerScript;
    delete holder[RUNNER_GLOBAL];
    // The case runner is this program's own code, not the script's: one copy serves every problem,
    // so V8 compiles and optimises it once per child rather than once per problem.
    this.runner = createRunner(suite, wrongModules);
    this.realm = this.newRealm();
  }

  /** Hosts of the realms' Redis clients: each realm has its own, closed with the problem. */
  private readonly hosts: RedisFacadeHost[] = [];
  /** The host of this.realm's Redis clients, where a scenario switches faults on. */
  private mainHost: RedisFacadeHost | undefined;
  /** The judge's own connection to the problem's Redis, for scenarios; opened on first use. */
  private admin: AdminConnection | undefined;

  /** A realm for the learner's code, with a way out for the suite's Redis clients if it has any. */
  private newRealm(): LearnerRealm {
    // Timers only where calls are awaited: a synchronous case could never let one fire.
    const realm = new LearnerRealm(this.runner.fixtureSources, { timers: this.runner.anyAsync });
    if (this.runner.outbound.includes('redis')) {
      const url = this.request.redisUrl;
      if (url === undefined)
        throw new Error('the suite uses Redis clients, and no Redis was given');
      const host = new RedisFacadeHost(url);
      this.hosts.push(host);
      realm.attachOutbound(host);
      this.mainHost ??= host;
      this.admin ??= new AdminConnection(
        this.request.redisAdminUrl ?? url,
        this.request.redisKeyPrefix ?? '',
        () => this.mainHost,
      );
    }
    return realm;
  }

  private code = '';
  private libraries: string[] = [];

  /**
   * A separate server's realm (see ServerRealms): the learner's class loaded afresh, its clients
   * on the problem's Redis beside the others'.
   */
  private serverRealm(): LearnerRealm | LearnerError {
    const realm = new LearnerRealm(this.runner.fixtureSources, { timers: this.runner.anyAsync });
    if (this.mainHost !== undefined) realm.attachOutbound(this.mainHost.view());
    for (const library of this.libraries) realm.loadLibrary(library);
    const loaded = realm.load(
      this.code,
      BUNDLE_NAME,
      this.request.className,
      this.runner.exportsFunction,
    );
    if (loaded.ok) return realm;
    if ('error' in loaded) return loaded.error;
    return { isError: true, name: 'Error', message: loaded.missing, stack: '' };
  }

  /** The learner's class loaded again in a realm of its own (its output is dropped). */
  private fresh(): LearnerRealm | undefined {
    const realm = this.newRealm();
    for (const library of this.libraries) realm.loadLibrary(library);
    const loaded = realm.load(
      this.code,
      BUNDLE_NAME,
      this.request.className,
      this.runner.exportsFunction,
    );
    return loaded.ok ? realm : undefined;
  }

  load(code: string, libraries: string[]): ChildMessage {
    const { learnerFile, className } = this.request;
    this.code = code;
    this.libraries = libraries;
    this.mapStack = stackMapper(code, learnerFile);
    for (const library of libraries) this.realm.loadLibrary(library);
    const loaded = this.realm.load(code, BUNDLE_NAME, className, this.runner.exportsFunction);
    const output = this.realm.drainOutput();
    if (loaded.ok) {
      this.loaded = true;
      return { type: 'ready', output };
    }
    if ('error' in loaded) {
      const { error } = loaded;
      return {
        type: 'load-failed',
        status: 'runtime-error',
        message: `loading the solution threw ${error.isError ? `${error.name}: ${error.message}${undeclaredAdvice(error)}` : error.message}`,
        stack: learnerStack(error.stack, learnerFile, this.mapStack),
        output,
      };
    }
    return {
      type: 'load-failed',
      status: 'compile-error',
      message: `${learnerFile} must export a ${this.runner.exportsFunction ? 'function' : 'class'} named ${className} (${loaded.missing})`,
      output,
    };
  }

  /** An async case: its calls are awaited, so its result comes later. */
  async runAsync(index: number): Promise<{ result: CaseResult; output: string }> {
    if (!this.loaded) throw new Error('the learner was not loaded');
    const { className, learnerFile } = this.request;
    // Loading the redis package costs hundreds of ms of CPU: not to be counted in the first case.
    // (Only then: without Redis the case starts at once, its 'waiting' message sent synchronously.)
    if (this.hosts.length > 0) await Promise.all(this.hosts.map((host) => host.ready()));
    const port = new ServerRealms(this.realm, () => this.serverRealm());
    const services = {
      redis: this.admin,
      skewClock: (ms: number) => port.skewClock(ms),
    };
    let result: CaseResult;
    try {
      // A scenario starts with none of the keys an earlier case (or an earlier run of it) left, on a
      // Redis that runs no script of an earlier case's (settle: see after the case).
      if (this.admin !== undefined && this.runner.isScenario(index)) {
        if ((await this.admin.settle()) === 'unkillable') {
          return { result: this.stuck(index), output: '' };
        }
        await this.admin.clearKeys();
      }
      // The parent's wall backstop learns how long the case may wait, so that it stops only a
      // child that gets no CPU, never one waiting within its call deadlines.
      result = await this.runner.runAsync(
        index,
        port,
        className,
        learnerFile,
        this.mapStack,
        (ms) => send({ type: 'waiting', index, ms }),
        services,
      );
    } catch (error) {
      if (!(error instanceof RedisCheckError)) throw error;
      port.end();
      // BUSY: a script of the learner's that cannot be stopped holds Redis (their doing).
      const result = error.busy ? this.stuck(index) : this.judgeFailure(index, error);
      return { result, output: port.drainOutput() };
    }
    // The case is over: its Redis clients disconnect now, answers still on their way are dropped,
    // and the separate servers' realms go.
    port.end();
    const output = port.drainOutput();
    if (this.admin === undefined) return { result, output };
    // No script of the learner's runs on past its case (see AdminConnection.settle).
    const settled = await this.admin.settle().catch((error: unknown) => error);
    if (settled instanceof RedisCheckError) {
      return { result: this.judgeFailure(index, settled), output };
    }
    if (settled instanceof Error || typeof settled !== 'string') throw settled;
    return { result: withSettled(result, settled as Settled), output };
  }

  /** A case that cannot run: Redis is held by a script of the learner's that cannot be stopped. */
  private stuck(index: number): CaseResult {
    return this.unrun(
      index,
      'time-limit-exceeded',
      'not run: Redis is still busy with the script of yours that could not be stopped ' +
        '(UNKILLABLE: see the first case it stopped)',
    );
  }

  /** A case that got no judgement of its own, named as the suite names it. */
  private unrun(index: number, status: CaseResult['status'], message: string): CaseResult {
    const info = this.runner.cases[index];
    return {
      name: info?.name ?? `case ${index}`,
      tier: info?.tier ?? 'core',
      trap: info?.trap ?? null,
      hint: null,
      status,
      ms: 0,
      message,
    };
  }

  /** The result of a case the judge could not judge: its Redis failed (not the learner's doing). */
  private judgeFailure(index: number, error: RedisCheckError): CaseResult {
    const reason = error.message.split('\n')[0] ?? 'the judge’s Redis failed';
    return {
      ...this.unrun(index, 'skipped', `not judged: the judge's Redis failed (${reason})`),
      judgeFailure: reason,
    };
  }

  /**
   * Done with: the realm lets go of the learner's instances, fixtures and pending calls. It can
   * outlive its last reference for a few collections; holding nothing, it cannot be counted in the
   * next problem's memory readings when it finally goes.
   */
  close(): void {
    this.realm.reset(undefined);
    // Every client of every realm disconnects: no connection outlives the problem.
    for (const host of this.hosts.splice(0)) void host.close();
    this.admin?.close();
  }

  run(index: number): { result: CaseResult; output: string } {
    if (!this.loaded) throw new Error('the learner was not loaded');
    const { className, learnerFile } = this.request;
    const result = this.runner.run(index, this.realm, className, learnerFile, this.mapStack, () =>
      this.fresh(),
    );
    return { result, output: this.realm.drainOutput() };
  }
}

/** What a case's result says of a script of the learner's stopped after it (see settle). */
function withSettled(result: CaseResult, settled: Settled): CaseResult {
  if (settled === 'idle') return result;
  const what = SETTLED[settled];
  if (result.status !== 'passed') {
    return { ...result, message: `${result.message ?? ''}${result.message ? '; ' : ''}${what}` };
  }
  return { ...result, status: 'time-limit-exceeded', message: what };
}

/** What each way of stopping a learner's script after a case says in the case's message. */
const SETTLED: Record<Exclude<Settled, 'idle'>, string> = {
  killed: 'a script of yours was still running after the case; the judge stopped it (SCRIPT KILL)',
  restarted:
    'a script of yours wrote and then ran on; Redis cannot stop such a script (UNKILLABLE), so ' +
    'the judge restarted its own server, empty',
  unkillable:
    'a script of yours wrote and then ran on, and Redis cannot stop such a script (UNKILLABLE): ' +
    'your REDIS_URL server answers BUSY until it ends, or until you run SHUTDOWN NOSAVE there ' +
    '(which loses its data) and start it again; the judge’s user on it goes with the restart, ' +
    'or with the next command',
};

/** Puts the built-ins back after each case: known-wrong code replayed in this realm may bend them. */
const restoreIntrinsics = guardIntrinsics();

let current: Problem | undefined;
let watching = false;

/** Answers one message from the parent. */
export function handleMessage(message: ParentMessage): void {
  switch (message.type) {
    case 'open':
      current?.close();
      current = new Problem(message);
      send({ type: 'cases', cases: current.runner.cases });
      // Started once the child has answered, so that its start-up is not on the first verdict's path.
      if (!watching) setImmediate(watchParent);
      watching = true;
      break;
    case 'load':
      if (current) send(current.load(message.code, message.libraries ?? []));
      break;
    case 'run':
      if (!current) break;
      // Synchronous cases keep the synchronous path, untouched. The parent sends nothing else while
      // a case runs (it waits for the result, or kills this process), so an async one is alone too.
      if (current.runner.isAsync(message.index)) runAsync(current, message.index);
      else {
        const ran = current.run(message.index);
        restoreIntrinsics();
        send({ type: 'result', index: message.index, ...ran });
      }
      break;
    case 'close':
      current?.close();
      current = undefined;
      break;
  }
}

function runAsync(problem: Problem, index: number): void {
  problem.runAsync(index).then(
    (ran) => {
      restoreIntrinsics();
      send({ type: 'result', index, ...ran });
    },
    // A mistake of the suite's or the judge's, as a throw is in a synchronous case: it ends this
    // process (an exception of the learner's is a result, never this).
    (error: unknown) =>
      process.nextTick(() => {
        throw error;
      }),
  );
}

/**
 * A thread that ends this process when its parent is gone, however the parent went (SIGKILL
 * included): the main thread may be stuck in a learner's loop and cannot notice by itself.
 */
function watchParent(): void {
  const watchdog = new Worker(
    `const { workerData } = require('node:worker_threads');
     setInterval(() => { if (process.ppid !== workerData) process.kill(process.pid, 'SIGKILL'); }, 250);`,
    { eval: true, workerData: process.ppid },
  );
  watchdog.unref();
}

/** Makes this process the judge's child: it serves the parent until the parent kills it. */
export function serveParent(): void {
  process.on('message', handleMessage);
  process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
  // A promise of the learner's that rejects later must not take down the child, and nothing of the
  // learner's (the reason) is inspected here: inspecting it could run their code with judge objects.
  process.on('unhandledRejection', () =>
    console.error('a promise in the solution was rejected and nothing handled it'),
  );
}
