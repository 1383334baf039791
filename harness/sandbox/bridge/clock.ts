// The realm's clock, a part of the bridge (see inside-realm.ts). Reading the real time is allowed,
// and counted: a failure in a case where the learner's code read it most likely comes from using
// it instead of the clock the case hands over. And the judge may skew it, as on a server whose
// clock is off. Runs inside the realm from its own text: it names nothing outside itself.

export interface Clock {
  /** How many times code in the realm read the real time since the last call (then zero again). */
  takeClockReads(): number;
  /**
   * From now on (until reset) `Date.now()`, `new Date()` and `Date()` read the real time plus `ms`,
   * as on a server whose clock is off. 0 puts it right; anything but a finite number is ignored.
   */
  skewClock(ms: number): void;
  /** Puts the clock right for the next case. */
  reset(): void;
}

/** Replaces `global.Date` with one that counts its reads of the real time and adds the skew. */
export function makeClock(global: Record<string, unknown>): Clock {
  'use strict';
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const defineProperty = Object.defineProperty;
  const isFiniteNumber = Number.isFinite;
  const RealmProxy = Proxy;

  let clockReads = 0;
  // What the judge added to the real time (skewClock): a server whose clock is off reads it so.
  let skew = 0;
  const RealDate = global.Date as DateConstructor | undefined;
  if (typeof RealDate === 'function') countClockReads(RealDate);
  function countClockReads(RealDate: DateConstructor): void {
    const realNow = RealDate.now;
    const dateText = RealDate.prototype.toString;
    defineProperty(RealDate, 'now', {
      value: function now(): number {
        clockReads += 1;
        return apply(realNow, RealDate, []) + skew;
      },
      writable: true,
      configurable: true,
    });
    const CountedDate = new RealmProxy(RealDate, {
      construct(target, args, newTarget) {
        if (args.length === 0) {
          clockReads += 1;
          if (skew !== 0)
            return construct(target, [apply(realNow, RealDate, []) + skew], newTarget);
        }
        return construct(target, args, newTarget);
      },
      apply(target, self, args) {
        clockReads += 1;
        // Date() ignores its arguments and tells the time now as text, as new Date().toString() would.
        if (skew === 0) return apply(target, self, args);
        return apply(dateText, construct(RealDate, [apply(realNow, RealDate, []) + skew]), []);
      },
    });
    global.Date = CountedDate;
    // So that `new Date().constructor === Date` still holds.
    defineProperty(RealDate.prototype, 'constructor', {
      value: CountedDate,
      writable: true,
      configurable: true,
    });
  }
  return {
    takeClockReads() {
      const reads = clockReads;
      clockReads = 0;
      return reads;
    },
    skewClock(ms) {
      if (typeof ms === 'number' && isFiniteNumber(ms)) skew = ms;
    },
    reset() {
      skew = 0;
    },
  };
}
