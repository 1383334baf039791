// An interview in a terminal: the learner's file is watched and judged on every save, keys are
// answered at once (h hint, s give up, e end, q quit, p pause in practice, a–d in a discussion),
// and the clock is looked at every tick for warnings and time up. Every event goes through one
// inbox (interview-keys.ts), so the state changes in one place, one event at a time.
import { watch } from 'chokidar';
import type { Problem } from '../../harness/judge/problems.ts';
import type { InterviewOutcome } from '../../harness/learner/interview-record.ts';
import { WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { Inbox, type Event, type Keys } from '../lib/interview-keys.ts';
import { clock, header, keysLine } from '../lib/interview-screen.ts';
import {
  currentRung,
  isOver,
  isUntouchedStub,
  leaveRung,
  remainingMs,
  togglePause,
  type RungState,
} from '../lib/interview-state.ts';
import { emptyReport, type Run } from './interview-run.ts';

/** Saves closer together than this are judged once (an editor may write a file in two steps). */
const DEBOUNCE_MS = 40;

/** What the loop does after an event: go on, or stop with an exit code. */
type Next = number | undefined;

class Watch {
  readonly inbox = new Inbox();
  private ticker: NodeJS.Timeout | undefined;
  private watcher: ReturnType<typeof watch> | undefined;
  private judging: AbortController | undefined;
  /** Bumped whenever a judgement starts or the question changes: older reports are dropped. */
  private token = 0;
  private busy = false;

  constructor(
    readonly run: Run,
    readonly keys: Keys,
  ) {}

  get state() {
    return this.run.state;
  }

  get io() {
    return this.run.io;
  }

  async start(tickMs: number): Promise<number> {
    void this.pumpKeys();
    this.ticker = setInterval(() => this.inbox.push({ kind: 'tick' }), tickMs);
    await this.ask();
    // After the question, which clears the screen: resumed with little time left, it is said.
    this.run.warn();
    for (;;) {
      const next = await this.handle(await this.inbox.next());
      if (next !== undefined) return next;
    }
  }

  private async pumpKeys(): Promise<void> {
    for (;;) {
      const key = await this.keys.next();
      this.inbox.push({ kind: 'key', key });
      if (key === null) return;
    }
  }

  private handle(event: Event): Promise<Next> | Next {
    if (event.kind === 'tick') return this.onTick();
    if (event.kind === 'save') return void this.startJudging();
    if (event.kind === 'judged') return this.onJudged(event);
    return this.onKey(event.key);
  }

  private status(): void {
    if (this.busy || !this.io.transient) return;
    const left = clock(remainingMs(this.state, this.run.now()));
    const text =
      this.state.pausedAt !== null
        ? `paused at ${left} left · p to go on`
        : `${left} left · ${keysLine(this.state, currentRung(this.state))}`;
    this.io.transient(this.io.style.dim(text));
  }

  private showKeys(rung: RungState): void {
    if (this.io.transient) this.status();
    else this.io.out(this.io.style.dim(wrap(keysLine(this.state, rung), WIDTH, '  ')));
  }

  private startJudging(): void {
    const rung = currentRung(this.state);
    if (rung?.kind !== 'code' || !rung.file) return;
    this.judging?.abort();
    const controller = new AbortController();
    this.judging = controller;
    const token = ++this.token;
    const problem = this.run.problemOf(rung) as Problem;
    // A save that puts the stub back is no attempt: nothing to judge.
    if (isUntouchedStub(rung.file, problem)) return;
    this.busy = true;
    void this.run.judgeFile(rung, controller.signal).then((report) => {
      const taken = report ?? { ...emptyReport(problem), cancelled: true };
      this.inbox.push({ kind: 'judged', report: taken, untouched: false, token });
    });
  }

  /** Asks the current question; a coding rung's file is watched, and judged at once if written. */
  private async ask(fresh = true): Promise<void> {
    this.token += 1;
    this.judging?.abort();
    this.busy = false;
    await this.watcher?.close();
    this.watcher = undefined;
    this.run.showCurrent(fresh);
    const rung = currentRung(this.state);
    if (rung?.kind !== 'code' || !rung.file) return;
    const watcher = watch(rung.file, { ignoreInitial: true });
    this.watcher = watcher;
    let debounce: NodeJS.Timeout | undefined;
    const saved = (): void => {
      clearTimeout(debounce);
      debounce = setTimeout(() => this.inbox.push({ kind: 'save' }), DEBOUNCE_MS);
    };
    watcher.on('change', saved).on('add', saved);
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    this.showKeys(rung);
    // A file already written (carried over from a rung on the same kata, or resumed).
    this.startJudging();
  }

  private async stop(): Promise<void> {
    clearInterval(this.ticker);
    this.judging?.abort();
    await this.watcher?.close();
  }

  private async leave(outcome: InterviewOutcome): Promise<number> {
    await this.stop();
    await this.run.finish(outcome, async () => {
      for (;;) {
        const event = await this.inbox.next();
        if (event.kind === 'key') return event.key;
      }
    });
    return 0;
  }

  private async onTick(): Promise<Next> {
    if (remainingMs(this.state, this.run.now()) > 0) {
      this.run.warn();
      this.status();
      return undefined;
    }
    this.judging?.abort();
    this.busy = true;
    await this.run.timeUp();
    return this.leave('time-up');
  }

  private async onJudged(event: Extract<Event, { kind: 'judged' }>): Promise<Next> {
    const rung = currentRung(this.state);
    if (event.token !== this.token || event.report.cancelled || rung?.kind !== 'code') {
      return undefined;
    }
    this.busy = false;
    this.io.clear?.();
    this.io.out(header(this.state, this.run.now(), this.io.style));
    if (!this.run.take(rung, event.report, false)) {
      this.showKeys(rung);
      return undefined;
    }
    if (isOver(this.state)) return this.leave('completed');
    await this.ask(false);
    return undefined;
  }

  private async onKey(key: string | null): Promise<Next> {
    if (key === null || key === 'q') {
      await this.stop();
      const left = clock(remainingMs(this.state, this.run.now()));
      this.io.out(
        wrap(
          `\nStopped. The clock keeps running (${left} left): npm run interview picks up ` +
            'where you are.',
        ),
      );
      return 0;
    }
    if (key === 'e') return this.leave('ended');
    const rung = currentRung(this.state);
    if (!rung) return undefined;
    if (key === 's') {
      leaveRung(this.state, 'skipped', this.run.now());
      this.run.save();
      if (isOver(this.state)) return this.leave('completed');
      await this.ask();
    } else if (key === 'p') {
      this.pause();
    } else if (key === 'h' && rung.kind === 'code') {
      this.run.hint(rung);
    } else if (rung.kind === 'discussion' && this.run.answer(rung, key)) {
      if (isOver(this.state)) return this.leave('completed');
      if (currentRung(this.state) === rung) this.run.showQuestion(rung);
      else await this.ask(false);
    }
    return undefined;
  }

  private pause(): void {
    if (this.state.mode !== 'practice') {
      this.io.out(
        this.io.style.dim('No pausing in an interview (start one with --practice to pause).'),
      );
      return;
    }
    const paused = togglePause(this.state, this.run.now());
    this.run.save();
    this.io.out(this.io.style.dim(paused ? 'Paused: p to go on.' : 'The clock runs again.'));
  }
}

/** Watches until the interview ends, the learner quits, or time is up. */
export function runWatch(run: Run, keys: Keys, tickMs: number): Promise<number> {
  return new Watch(run, keys).start(tickMs);
}
