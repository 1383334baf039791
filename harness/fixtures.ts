// Fixtures any suite may use. Each is the source of a self-contained function: the judge evaluates it
// inside the learner's realm, so what learner code receives holds nothing of the judge.
import type { FixtureSpec } from './suite.ts';

/**
 * A fake clock: the learner's code gets `{ now(): number }` (milliseconds); the case moves it with
 * `clock.set(ms)` and `clock.advance(ms)`, backwards too. Every row of the call table shows its time.
 */
export function fakeClock(startMs = 0): FixtureSpec {
  return { args: [startMs], source: String(makeClock) };
}

/** The clock itself; it runs from its source text, so it may use nothing outside itself. */
export function makeClock(start: number): {
  handle: { now(): number };
  control: { set(ms: number): null; advance(ms: number): null };
  status: () => string;
} {
  let time = start;
  const handle = Object.freeze({ now: () => time });
  const control = {
    set(ms: number) {
      time = ms;
      return null;
    },
    advance(ms: number) {
      time += ms;
      return null;
    },
  };
  return { handle, control, status: () => `t=${time}` };
}
