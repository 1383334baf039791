// One child process running learner code, seen from the parent: it starts it, sends it one case at a
// time, and kills it when a deadline passes or its memory grows past the cap. Whatever the learner's
// code does — loop forever, allocate without end — this side survives it.
//
// Deadlines count the child's CPU time, not wall time: on a machine busy with other work the child
// gets less of a core, and a deadline in wall time would stop fast code. Wall time only backs them up
// (ten times over), for a child that gets no CPU at all.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ChildMessage, OpenRequest, ParentMessage } from './child/protocol.ts';
import { childEnv, sandboxFlags } from './child-sandbox.ts';
import type { CaseInfo, CaseResult } from './outcome.ts';

/** V8's heap cap for learner code. A reference solution peaks far below this. */
const HEAP_LIMIT_MB = 256;
/** Resident memory cap, which also catches off-heap allocations such as huge ArrayBuffers. */
const RSS_LIMIT_MB = 512;
const RSS_POLL_MS = 40;
/**
 * The child's V8 flags. Optimising compiles run on the main thread: a compile job in flight holds
 * the objects it inlines (a closed problem's realm, and through it the learner's instances) until
 * the main thread installs its code, at a moment no one chooses. Freed between the readings with
 * and without a case's instances, that memory was counted as the case's (8 MB against a 1 MB limit).
 * Case time is the process's CPU, so a compile costs the learner the same on either thread.
 */
const CHILD_FLAGS = [
  `--max-old-space-size=${HEAP_LIMIT_MB}`,
  '--expose-gc',
  '--enable-source-maps',
  '--no-concurrent-recompilation',
];
/**
 * A case stopped for time whose process grew by more than this was allocating without end: no
 * reference grows by a tenth of it, and the heap cap alone stops a hog at ~300 MB resident.
 */
const HOGGING_GROWTH_MB = 150;
/** CPU time a child may take to start and load the learner's module. */
const LOAD_DEADLINE_MS = 4000;
/** Wall time allowed per ms of CPU deadline, plus a constant: only for a child that gets no CPU. */
const WALL_FACTOR = 10;
const WALL_EXTRA_MS = 2000;
/** And never less than this: a starved child of a case with a small limit is not a runaway. */
const WALL_FLOOR_MS = 15_000;
/** Linux reports CPU time in clock ticks of 10 ms. */
const MS_PER_TICK = 10;
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
  | {
      why: 'timeout';
      /**
       * Set when the CPU deadline was not what stopped it: `blocked` when its main thread sat
       * blocked (Atomics.wait) for as long as the deadline, neither running nor waiting for a CPU;
       * else the wall backstop, for a child that got too little CPU to reach its deadline.
       */
      stalled?: { blocked: boolean; wallMs: number; cpuMs: number };
    }
  | { why: 'memory' }
  | { why: 'exit'; code: number | null; signal: string | null };

/** CPU time (user + system) the process has used, in ms; undefined where /proc is not there. */
export function cpuTimeMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
  } catch {
    return undefined;
  }
}

/** futex(2) by architecture: what a thread blocked in Atomics.wait (or on a lock) is inside. */
const FUTEX_SYSCALL: Partial<Record<string, number>> = { x64: 202, arm64: 98, ia32: 240, arm: 240 };

/**
 * Whether the process's main thread is blocked in futex(2) now: sleeping on a lock or in
 * Atomics.wait, not idle in its event loop (epoll) or running. False where /proc cannot tell.
 */
function blockedInFutex(pid: number): boolean {
  try {
    const wchan = readFileSync(`/proc/${pid}/wchan`, 'utf8');
    if (wchan.includes('futex')) return true;
    const call = Number(readFileSync(`/proc/${pid}/syscall`, 'utf8').split(' ')[0]);
    return call === FUTEX_SYSCALL[process.arch];
  } catch {
    return false;
  }
}

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
  /** Killed by us: it is dead from that moment, though its 'exit' comes later. */
  private killed = false;
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
  /** CPU time the child had used in the running (or last) case when last looked at, in ms. */
  spentMs = 0;
  /** The running deadline: CPU time at its start and how much it allows. */
  private deadline: { cpuStartMs: number; cpuLimitMs: number } | undefined;
  /**
   * Time the running deadline's main thread has spent blocked (in futex, its CPU time standing
   * still), and when and at what CPU time the poll last looked.
   */
  private blocked = { ms: 0, lastPoll: 0, lastCpu: -1 };
  /** When the running deadline was armed, and the latest its wall backstop may fire (performance.now()). */
  private armedAt = 0;
  private wallCapAt = Infinity;
  /** The running deadline's wall-clock backstop: its timer, and when it fires (performance.now()). */
  private wall: { timer: NodeJS.Timeout; endsAt: number } | undefined;

  constructor(workerBundle: string) {
    this.child = fork(workerBundle, [], {
      // Confined (see child-sandbox.ts): it reads its scripts only, writes nothing, starts nothing,
      // and sees none of this process's environment.
      execArgv: [...CHILD_FLAGS, ...sandboxFlags(workerBundle)],
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    const collect = (chunk: Buffer | string): void => {
      if (this.output.text.length < OUTPUT_CAP) this.output.text += chunk.toString();
    };
    this.child.stdout?.on('data', collect);
    this.child.stderr?.on('data', (chunk: Buffer) => {
      collect(chunk);
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4096);
    });
    this.child.on('message', (message: ChildMessage) => {
      if (message.type === 'cases') this.cases = message.cases;
      if ('output' in message && message.output) collect(message.output);
      this.listener?.(message);
      if (message.type === 'cases') this.listedThen?.();
    });
    // A message sent as the child dies fails (EPIPE) as an 'error' event, which would end this
    // process if nobody listened. The death itself is what counts, and 'exit' reports it.
    this.child.on('error', () => {});
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      clearTimeout(this.listingWait);
      clearInterval(this.poll);
      const heapDeath = /heap out of memory|Reached heap limit|Allocation failed/.test(
        this.stderrTail,
      );
      this.finish(
        this.memoryExceeded || heapDeath ? { why: 'memory' } : { why: 'exit', code, signal },
      );
    });
    this.poll = setInterval(() => {
      const pid = this.child.pid;
      const rss = pid === undefined ? undefined : residentMb(pid);
      this.peakRssMb = Math.max(this.peakRssMb, rss ?? 0);
      if (rss !== undefined && rss > RSS_LIMIT_MB) {
        this.memoryExceeded = true;
        this.child.kill('SIGKILL');
      }
      const deadline = this.deadline;
      const cpu = pid === undefined ? undefined : cpuTimeMs(pid);
      if (deadline && cpu !== undefined) this.spentMs = cpu - deadline.cpuStartMs;
      if (deadline && cpu !== undefined && cpu - deadline.cpuStartMs > deadline.cpuLimitMs) {
        this.kill({ why: 'timeout' });
      }
      if (deadline && cpu !== undefined && pid !== undefined) this.countBlocked(pid, cpu);
    }, RSS_POLL_MS);
    this.poll.unref();
  }

  /**
   * A main thread blocked in futex while the process's CPU time stands still is waiting on nothing
   * the machine's load explains (a starved child is runnable, not blocked): past the CPU deadline
   * in such time, it is stopped, and the report says it was blocked.
   */
  private countBlocked(pid: number, cpu: number): void {
    const now = performance.now();
    const { lastPoll, lastCpu } = this.blocked;
    if (lastCpu === cpu && blockedInFutex(pid)) this.blocked.ms += now - lastPoll;
    this.blocked.lastPoll = now;
    this.blocked.lastCpu = cpu;
    if (this.deadline && this.blocked.ms > this.deadline.cpuLimitMs) {
      this.kill({ why: 'timeout', stalled: this.stalled(true) });
    }
  }

  /** How long the running deadline has run, in wall time and CPU time. */
  private stalled(blocked: boolean): { blocked: boolean; wallMs: number; cpuMs: number } {
    const wallMs = Math.round(performance.now() - this.armedAt);
    return { blocked, wallMs, cpuMs: Math.round(this.spentMs) };
  }

  /**
   * Arms a deadline of `limitMs` of the child's CPU time (the wall time the child is given where
   * /proc cannot tell its CPU time), backed by a wall-clock timer of at most `wallCapMs`; returns
   * the function that disarms it.
   */
  private arm(limitMs: number, wallCapMs = Infinity): () => void {
    const pid = this.child.pid;
    const cpuStartMs = pid === undefined ? undefined : cpuTimeMs(pid);
    const wallMs =
      cpuStartMs === undefined
        ? limitMs
        : Math.max(WALL_FLOOR_MS, limitMs * WALL_FACTOR + WALL_EXTRA_MS);
    this.armedAt = performance.now();
    this.wallCapAt = this.armedAt + wallCapMs;
    this.setWall(wallMs);
    this.spentMs = 0;
    this.blocked = { ms: 0, lastPoll: this.armedAt, lastCpu: cpuStartMs ?? -1 };
    this.deadline = cpuStartMs === undefined ? undefined : { cpuStartMs, cpuLimitMs: limitMs };
    return () => {
      this.clearWall();
      this.deadline = undefined;
    };
  }

  private setWall(wantedMs: number): void {
    this.clearWall();
    // Never past the cap, however far an async case moves it (see extendWall).
    const ms = Math.min(wantedMs, this.wallCapAt - performance.now());
    const timer = setTimeout(() => this.kill({ why: 'timeout', stalled: this.stalled(false) }), ms);
    this.wall = { timer, endsAt: performance.now() + ms };
  }

  private clearWall(): void {
    if (this.wall) clearTimeout(this.wall.timer);
    this.wall = undefined;
  }

  /**
   * Moves the wall backstop `ms` later: an async case may wait that long for answers, in wall time
   * and without CPU, on top of its CPU deadline (the child stops each wait at its call deadline).
   */
  private extendWall(ms: number): void {
    if (this.wall) this.setWall(this.wall.endsAt - performance.now() + ms);
  }

  /** Starts judging a problem in a fresh context: the child loads its runner and lists its cases. */
  open(request: Omit<OpenRequest, 'type'>): void {
    // A spare opened on this very problem ahead of time has it open already.
    const key = JSON.stringify(request);
    if (this.opened === key && this.alive) return;
    this.opened = key;
    this.cases = undefined;
    if (this.alive) this.child.send({ type: 'open', ...request } satisfies ParentMessage);
  }

  /** What open() last opened, until close(). */
  private opened: string | undefined;

  /** Ends the problem; the child drops its context and waits for the next one. */
  close(): void {
    this.opened = undefined;
    this.cases = undefined;
    if (this.alive) this.child.send({ type: 'close' } satisfies ParentMessage);
  }

  get alive(): boolean {
    return !this.exited && !this.killed && this.death === undefined;
  }

  private finish(death: Death): void {
    if (this.death === undefined) this.death = death;
    this.onDeath?.(this.death);
  }

  /** The suite's cases, as the child lists them on start-up (before any learner code loads). */
  listed(): Promise<CaseInfo[] | undefined> {
    return new Promise((resolve) => {
      if (this.cases || this.death) return resolve(this.cases);
      const disarm = this.arm(LOAD_DEADLINE_MS);
      const done = (): void => {
        disarm();
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

  /** Tells the child to load the learner's compiled code, and waits until it has. */
  async load(code: string, libraries: string[] = []): Promise<LoadOutcome> {
    const cases = await this.listed();
    return new Promise((resolve) => {
      const disarm = this.arm(LOAD_DEADLINE_MS);
      const done = (outcome: LoadOutcome): void => {
        disarm();
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
      this.child.send({ type: 'load', code, libraries } satisfies ParentMessage);
    });
  }

  /**
   * Runs one case; the child is killed once it has spent `deadlineMs` of CPU time without
   * answering, or as long blocked, or after `wallCapMs` of wall time at the most.
   */
  run(index: number, deadlineMs: number, wallCapMs?: number): Promise<RunOutcome> {
    const rss = this.child.pid === undefined ? undefined : residentMb(this.child.pid);
    this.startRssMb = this.peakRssMb = rss ?? 0;
    return new Promise((resolve) => {
      const disarm = this.arm(deadlineMs, wallCapMs);
      const done = (outcome: RunOutcome): void => {
        disarm();
        this.listener = undefined;
        this.onDeath = undefined;
        resolve(outcome);
      };
      this.onDeath = (reason) => done({ kind: 'died', reason });
      this.listener = (message) => {
        if (message.type === 'result' && message.index === index)
          done({ kind: 'result', result: message.result });
        if (message.type === 'waiting' && message.index === index) this.extendWall(message.ms);
      };
      if (this.death) return done({ kind: 'died', reason: this.death });
      this.child.send({ type: 'run', index } satisfies ParentMessage);
    });
  }

  /** What killOnceListed waits to do, and how long it waits at most. */
  private listedThen: (() => void) | undefined;
  private listingWait: NodeJS.Timeout | undefined;

  /**
   * Kills the child once it has listed the suite's cases (at once if it has, and after `maxMs` at
   * the latest): a judgement cut short still names every case. It waits beside whoever waits on
   * the child, never in their place.
   */
  killOnceListed(maxMs: number): void {
    if (this.cases !== undefined || !this.alive) return this.kill();
    const kill = (): void => {
      clearTimeout(this.listingWait);
      this.listedThen = undefined;
      this.kill();
    };
    this.listedThen = kill;
    this.listingWait = setTimeout(kill, maxMs);
  }

  kill(reason?: Death): void {
    // Stopped for time while far past any honest need for memory: it was allocating without end,
    // and only a slow machine kept it from reaching the heap cap first. Say so, whatever the speed.
    const hogging =
      reason?.why === 'timeout' && this.peakRssMb - this.startRssMb > HOGGING_GROWTH_MB;
    if (reason && this.death === undefined) this.death = hogging ? { why: 'memory' } : reason;
    clearInterval(this.poll);
    this.clearWall();
    this.deadline = undefined;
    this.killed = true;
    if (!this.exited) this.child.kill('SIGKILL');
  }
}
