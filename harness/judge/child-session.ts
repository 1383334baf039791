// One child process running learner code, seen from the parent: it starts it, sends it one case at a
// time, and kills it when a deadline passes or its memory grows past the cap. Whatever the learner's
// code does — loop forever, allocate without end, call process.exit — this side survives it.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ChildMessage, OpenRequest, ParentMessage } from './child/protocol.ts';
import type { CaseInfo, CaseResult } from './outcome.ts';

/** V8's heap cap for learner code. A reference solution peaks far below this. */
export const HEAP_LIMIT_MB = 256;
/** Resident memory cap, which also catches off-heap allocations such as huge ArrayBuffers. */
export const RSS_LIMIT_MB = 512;
const RSS_POLL_MS = 40;
/**
 * A case stopped for time whose process grew by more than this was allocating without end: no
 * reference grows by a tenth of it, and the heap cap alone stops a hog at ~300 MB resident.
 */
export const HOGGING_GROWTH_MB = 150;
/** How long a child may take to start and load the learner's module. */
export const LOAD_DEADLINE_MS = 4000;
/** Output kept from learner code; beyond this it is dropped. */
const OUTPUT_CAP = 16_384;

export type LoadOutcome =
  | { kind: 'ready'; cases: CaseInfo[] }
  | {
      kind: 'load-failed';
      cases: CaseInfo[];
      status: 'compile-error' | 'runtime-error';
      message: string;
      stack?: string;
    }
  | { kind: 'died'; cases: CaseInfo[] | undefined; reason: Death };

export type RunOutcome = { kind: 'result'; result: CaseResult } | { kind: 'died'; reason: Death };

export type Death =
  | { why: 'timeout' }
  | { why: 'memory' }
  | { why: 'exit'; code: number | null; signal: string | null };

function residentMb(pid: number): number | undefined {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return (pages * 4096) / 1e6;
  } catch {
    return undefined; // not Linux, or the process is gone: the heap cap still applies
  }
}

export class ChildSession {
  private readonly child: ChildProcess;
  private cases: CaseInfo[] | undefined;
  private death: Death | undefined;
  private exited = false;
  private memoryExceeded = false;
  private listener: ((message: ChildMessage) => void) | undefined;
  private onDeath: ((death: Death) => void) | undefined;
  private readonly poll: NodeJS.Timeout;

  /** Where what the child prints goes: switched to each problem's own collector in turn. */
  output: { text: string } = { text: '' };
  /** Resident memory when the running case started, and the most seen since. */
  private startRssMb = 0;
  private peakRssMb = 0;
  /** The end of the child's stderr, where V8 reports running out of heap. */
  private stderrTail = '';

  constructor(workerBundle: string) {
    this.child = fork(workerBundle, [], {
      execArgv: [`--max-old-space-size=${HEAP_LIMIT_MB}`, '--expose-gc', '--enable-source-maps'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    const collect = (chunk: Buffer): void => {
      if (this.output.text.length < OUTPUT_CAP) this.output.text += chunk.toString('utf8');
    };
    this.child.stdout?.on('data', collect);
    this.child.stderr?.on('data', (chunk: Buffer) => {
      collect(chunk);
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4096);
    });
    this.child.on('message', (message: ChildMessage) => {
      if (message.type === 'cases') this.cases = message.cases;
      this.listener?.(message);
    });
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      clearInterval(this.poll);
      const heapDeath = /heap out of memory|Reached heap limit|Allocation failed/.test(
        this.stderrTail,
      );
      this.finish(
        this.memoryExceeded || heapDeath ? { why: 'memory' } : { why: 'exit', code, signal },
      );
    });
    this.poll = setInterval(() => {
      const rss = this.child.pid === undefined ? undefined : residentMb(this.child.pid);
      this.peakRssMb = Math.max(this.peakRssMb, rss ?? 0);
      if (rss !== undefined && rss > RSS_LIMIT_MB) {
        this.memoryExceeded = true;
        this.child.kill('SIGKILL');
      }
    }, RSS_POLL_MS);
    this.poll.unref();
  }

  /** Starts judging a problem in a fresh context: the child loads its runner and lists its cases. */
  open(request: Omit<OpenRequest, 'type'>): void {
    this.cases = undefined;
    if (this.alive) this.child.send({ type: 'open', ...request } satisfies ParentMessage);
  }

  /** Ends the problem; the child drops its context and waits for the next one. */
  close(): void {
    this.cases = undefined;
    if (this.alive) this.child.send({ type: 'close' } satisfies ParentMessage);
  }

  get alive(): boolean {
    return !this.exited && this.death === undefined;
  }

  private finish(death: Death): void {
    if (this.death === undefined) this.death = death;
    this.onDeath?.(this.death);
  }

  /** The suite's cases, as the child lists them on start-up (before any learner code loads). */
  listed(): Promise<CaseInfo[] | undefined> {
    return new Promise((resolve) => {
      if (this.cases || this.death) return resolve(this.cases);
      const timer = setTimeout(() => this.kill({ why: 'timeout' }), LOAD_DEADLINE_MS);
      const done = (): void => {
        clearTimeout(timer);
        this.listener = undefined;
        this.onDeath = undefined;
        resolve(this.cases);
      };
      this.onDeath = done;
      this.listener = (message) => {
        if (message.type === 'cases') done();
      };
    });
  }

  /** Tells the child to load the learner's (now compiled) module, and waits until it has. */
  async load(): Promise<LoadOutcome> {
    const cases = await this.listed();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.kill({ why: 'timeout' }), LOAD_DEADLINE_MS);
      const done = (outcome: LoadOutcome): void => {
        clearTimeout(timer);
        this.listener = undefined;
        this.onDeath = undefined;
        resolve(outcome);
      };
      this.onDeath = (reason) => done({ kind: 'died', cases, reason });
      this.listener = (message) => {
        if (message.type === 'ready') done({ kind: 'ready', cases: cases ?? [] });
        if (message.type === 'load-failed') {
          const { status, message: text, stack } = message;
          done({ kind: 'load-failed', cases: cases ?? [], status, message: text, stack });
        }
      };
      if (this.death) return done({ kind: 'died', cases, reason: this.death });
      this.child.send({ type: 'load' } satisfies ParentMessage);
    });
  }

  /** Runs one case; the child is killed if it has not answered by the deadline. */
  run(index: number, deadlineMs: number): Promise<RunOutcome> {
    const rss = this.child.pid === undefined ? undefined : residentMb(this.child.pid);
    this.startRssMb = this.peakRssMb = rss ?? 0;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.kill({ why: 'timeout' }), deadlineMs);
      const done = (outcome: RunOutcome): void => {
        clearTimeout(timer);
        this.listener = undefined;
        this.onDeath = undefined;
        resolve(outcome);
      };
      this.onDeath = (reason) => done({ kind: 'died', reason });
      this.listener = (message) => {
        if (message.type === 'result' && message.index === index)
          done({ kind: 'result', result: message.result });
      };
      if (this.death) return done({ kind: 'died', reason: this.death });
      this.child.send({ type: 'run', index } satisfies ParentMessage);
    });
  }

  kill(reason?: Death): void {
    // Stopped for time while far past any honest need for memory: it was allocating without end,
    // and only a slow machine kept it from reaching the heap cap first. Say so, whatever the speed.
    const hogging =
      reason?.why === 'timeout' && this.peakRssMb - this.startRssMb > HOGGING_GROWTH_MB;
    if (reason && this.death === undefined) this.death = hogging ? { why: 'memory' } : reason;
    clearInterval(this.poll);
    if (!this.exited) this.child.kill('SIGKILL');
  }
}
