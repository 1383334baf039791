// The realm's timers, a part of the bridge (see inside-realm.ts): setTimeout and clearTimeout only
// in realms of async problems, where they go through the outbound queue (see outbox.ts);
// setInterval, setImmediate and, elsewhere, setTimeout throw, saying why. Runs inside the realm
// from its own text: it names nothing outside itself.
//
// setTimeout posts a '(timer)' request carrying its delay, and the judge answers it once the delay
// has passed. The callback then runs in a job of this realm's own (after an await, as the outbox's
// answers reach learner code): the judge, which only settled a promise with a string, is gone from
// the stack. Its records live here, under ids only this code hands out; reset forgets them all, so
// a timer of a case before never fires.
import type { Outbox } from './outbox.ts';
import type { Output } from './output.ts';

export interface Timers {
  /** Forgets every timer: none of a case before fires. */
  reset(): void;
}

/** Puts the timer functions on `global`: real ones only with `timers`. */
export function makeTimers(
  global: Record<string, unknown>,
  timers: boolean,
  outbox: Outbox,
  output: Output,
): Timers {
  'use strict';
  // TIMER_CHANNEL, TIMER_CLEAR_CHANNEL and TIMEOUT_MAX, restated
  // (test/unit/bridge-constants.test.ts holds each to its original).
  const TIMER = '(timer)';
  const TIMER_CLEAR = '(timer-clear)';
  const TIMEOUT_MAX = 2147483647;
  const apply = Reflect.apply;
  const create = Object.create;
  const toText = String;
  const BaseError = Error;
  const BaseTypeError = TypeError;
  const { ask, enqueue, withdraw } = outbox;
  const { print, show } = output;

  const noTimers = (): never => {
    throw new BaseError(
      'timers are not available here: the judge calls your methods one at a time, synchronously',
    );
  };
  const onlyTimeouts = (): never => {
    throw new BaseError(
      'only setTimeout and clearTimeout are available here (no setInterval or setImmediate)',
    );
  };
  global.setTimeout = noTimers;
  global.setInterval = global.setImmediate = timers ? onlyTimeouts : noTimers;
  global.clearTimeout = global.clearInterval = global.clearImmediate = () => undefined;

  interface Timer {
    request: number;
    fn: (...args: unknown[]) => unknown;
    args: unknown[];
  }
  let live: Record<number, Timer> = create(null) as Record<number, Timer>;
  // From 1: a learner's `if (this.timer)` must see a timer.
  let nextTimer = 1;
  /** What an uncaught exception in a callback prints, as Node would; never thrown on. */
  const uncaught = (error: unknown): void => {
    try {
      const stack = error instanceof BaseError ? (error as { stack?: unknown }).stack : undefined;
      print(`Uncaught ${typeof stack === 'string' ? stack : show(error)}`);
    } catch {
      print('Uncaught exception in a timer callback');
    }
  };
  const fire = async (handle: number, answer: Promise<string>): Promise<void> => {
    await answer;
    const timer = live[handle];
    if (timer === undefined) return;
    delete live[handle];
    try {
      apply(timer.fn, undefined, timer.args);
    } catch (error) {
      uncaught(error);
    }
  };
  const setTimeoutInRealm = function setTimeout(
    fn: unknown,
    ms?: unknown,
    ...args: unknown[]
  ): number {
    if (typeof fn !== 'function') {
      throw new BaseTypeError('The "callback" argument must be of type function');
    }
    // As Node: a delay that is not a number from 1 to 2^31 - 1 is 1 ms.
    let delay = ms === undefined ? 1 : +(ms as number);
    if (!(delay >= 1 && delay <= TIMEOUT_MAX)) delay = 1;
    const text = toText(delay);
    const copy = create(null) as string[];
    copy[0] = text;
    const { id, answer } = ask(TIMER, copy, 1, text.length);
    const handle = nextTimer++;
    const timer = create(null) as Timer;
    timer.request = id;
    timer.fn = fn as Timer['fn'];
    timer.args = args;
    live[handle] = timer;
    void fire(handle, answer);
    return handle;
  };
  const clearTimeoutInRealm = function clearTimeout(handle?: unknown): void {
    const key = typeof handle === 'number' || typeof handle === 'string' ? +handle : NaN;
    const timer = live[key];
    if (timer === undefined) return;
    delete live[key];
    const id = timer.request;
    // Answered already, or not taken yet (then it never goes out): nothing waits any more.
    if (!withdraw(id)) return;
    // The judge has it: tell it, so that it drops its timer. Nothing answers this one. Should the
    // queue be full, the judge's timer runs out instead, and its answer finds nobody waiting.
    const text = toText(id);
    const copy = create(null) as string[];
    copy[0] = text;
    try {
      enqueue(TIMER_CLEAR, copy, 1, text.length);
    } catch {
      // see above
    }
  };
  if (timers) {
    global.setTimeout = setTimeoutInRealm;
    global.clearTimeout = clearTimeoutInRealm;
  }
  return {
    reset() {
      live = create(null) as Record<number, Timer>;
    },
  };
}
