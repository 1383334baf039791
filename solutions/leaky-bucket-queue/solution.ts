// Reference: a leaky-bucket queue (a shaper). Each key has a queue that lets
// one request through every I = 1000 / leakPerSecond milliseconds; `submit`
// either gives a request its place in that queue, with the time it will start,
// or refuses it because `capacity` requests are already waiting.
//
// State per key: one number, `next`, the time at which the key's next request
// would start if its queue were still busy: one interval after the last
// accepted start. Nothing else is needed: while a queue is busy its starts are
// exactly one interval apart, so the ones still waiting are next − I,
// next − 2I, … down to now, and which of them have started follows from `next`
// alone.
//
// Why it is right. A new request starts at max(now, next): at once if the queue
// has drained (next <= now; the run of starts ends and a new one begins at now,
// so an idle key never builds up credit for a burst), else right after the last
// one queued. Waiting means "starts later than now", so a request whose start
// is now or earlier holds no place, and a place frees at the very moment its
// request starts. The new request fits if fewer than `capacity` requests are
// waiting, that is if the request `capacity` places before it, which starts at
// `ahead` = next − capacity·I, has started: ahead <= now. A refused request
// changes nothing.
//
// The answer (after this request, if accepted):
// - startAt   = max(now, next); for a refused request, the start it would have
//   had.
// - remaining = the places free after this one is queued: every request that
//   has started since `ahead` frees one, so floor((now − ahead) / I) (this
//   request itself waits, so at most capacity − 1 of them have started).
// - retryAt   = now if accepted; else the first whole millisecond at which the
//   request `capacity` places ahead has started: ceil(ahead).
// - resetAt   = the first whole millisecond from which the queue is drained
//   (the key then answers like a new one: its request starts at once, with
//   every place free): ceil(next) once this request is counted.
//
// Exactness. The interval is a fraction of a millisecond more often than not
// (1000 / 3, 1000 / 0.769), and in floating point a start that falls exactly
// on a whole millisecond can come out a hair after it: at 9.28 a second, start
// 145 of a run is exactly 15 625 ms after the first, but 145000 / 9.28 is
// 15625.000000000002, so at that millisecond the request would still count as
// waiting. So times are kept as whole numbers, in ticks of 1/p ms for a rate
// that is the decimal p/q (0.769 = 769/1000, 9.28 = 928/100): a time of t ms
// is t·p ticks and the interval is 1000·q ticks. The rate is read as the
// shortest decimal that gives the same double (the digits String and
// toExponential write), so the number a client typed as 9.28 is exactly
// 928/100 here. Sums, comparisons and the roundings up to whole
// milliseconds are then exact; only startAt, the one fractional field, is
// turned back into milliseconds, by one division of doubles. The ticks are
// BigInts: a rate written with many digits (0.1 + 0.2 is 0.30000000000000004,
// p/q = 30000000000000004/10^17) would take t·p past a double's 53 bits, and
// so would a clock far from zero; with BigInts every field but startAt is
// exact for every rate and every clock reading.
//
// Memory: a key whose queue has drained answers like a key never seen, so its
// state can go (contract rule 7). Eviction is lazy and driven by the calls,
// never by timers: a live iterator over the map (the hand) goes round it, a
// little per call, from where the last call left it. It deletes every drained
// key it meets and stops once it has passed SWEEP_LIVE busy ones. Each key is
// deleted once and each call passes at most SWEEP_LIVE busy ones, so a call
// costs O(1) amortised; the hand goes round in about (busy entries) /
// SWEEP_LIVE calls, so a drained key is gone soon after it drains. A busy key
// cannot shield the dead ones behind it, as it would for a sweep that only pops
// drained keys off the front of the map. A key with requests still waiting is
// never dropped.
//
// Clock faults: one high-water mark for the whole queue; a reading below it
// acts as the mark. The clock reads whole milliseconds (the contract), at or
// after 0.
//
// Cost: O(1) amortised per call, with a few operations on small BigInts.
// Memory O(keys with a request waiting or starting in the last interval), plus
// those drained since the hand last passed.
//
// Traps it avoids: no credit after idleness (no-burst-after-idle), starts
// exactly I apart from the previous start, not from the submission (spacing),
// capacity + 1 at one instant (queue-full), `<=` at a start (drained-slot),
// refused requests never counted (rejected-not-queued), a Map per instance
// (key-isolation, instance-isolation, prototype-keys), the clock given
// (injected-clock), ceil for retryAt and resetAt (reset-and-retry), the
// high-water mark (clock-backwards), validation first (bad-input), any positive
// rate and exact ticks (fractional-rate), the sweep (idle-eviction).
import type { Clock, RateLimitResult } from '../../problems/rate-limiter-contract.ts';

/**
 * The contract's answer, and when the request is let through (a refused one:
 * would have been).
 */
export type QueueResult = RateLimitResult & { startAt: number };

/** How many busy keys the sweep passes over in one call, at most. */
const SWEEP_LIVE = 2;

/**
 * A positive finite number as the decimal JavaScript writes for it, p/q:
 * 0.769 is 769/1000, 250 is 250/1, 2.5e-7 is 25/10^8.
 */
function decimal(value: number): [p: bigint, q: bigint] {
  // d.ddde±x with the fewest digits that tell the number apart from every
  // other double: 7.69e-1, 2.5e+2. Every rate has this one form, so no rate
  // takes a path of its own.
  const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
  const [first, rest = ''] = mantissa.split('.') as [string, string?];
  // value = (the digits without the point) · 10^shift
  const shift = Number(exponent) - rest.length;
  const p = BigInt(first + rest) * 10n ** BigInt(Math.max(shift, 0));
  return [p, 10n ** BigInt(Math.max(-shift, 0))];
}

export class LeakyBucketQueue {
  /** The latest clock reading seen: the queue's "now" never goes below it. */
  private mark = -Infinity;
  /** Ticks per millisecond: p, for a rate of p/q per second. */
  private readonly perMs: bigint;
  /** The interval I, in ticks: 1000 ms / (p/q) = 1000·q ticks of 1/p ms. */
  private readonly interval: bigint;
  /**
   * capacity · I, in ticks: how far `next` may run ahead of the start
   * `capacity` places back.
   */
  private readonly full: bigint;
  /** Per key: when its next request would start (ticks), if still busy. */
  private readonly nexts = new Map<string, bigint>();
  /**
   * Where the sweep goes on from. A Map's iterator is live: it sees entries
   * added after it was made and skips the ones deleted, so one hand can go
   * round and round, a few entries per call.
   */
  private hand: MapIterator<[string, bigint]> = this.nexts.entries();

  constructor(
    private readonly capacity: number,
    leakPerSecond: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(capacity) || capacity <= 0) {
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    }
    // Any positive rate, fractional too: 0.769 per second is one request every
    // 1300.39 ms.
    if (
      typeof leakPerSecond !== 'number' ||
      !Number.isFinite(leakPerSecond) ||
      leakPerSecond <= 0
    ) {
      throw new RangeError(`leakPerSecond must be a positive finite number, got ${leakPerSecond}`);
    }
    const [p, q] = decimal(leakPerSecond);
    this.perMs = p;
    this.interval = 1000n * q;
    this.full = BigInt(capacity) * this.interval;
  }

  submit(key: string): QueueResult {
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    const t = BigInt(now) * this.perMs;
    this.sweep(t);
    const next = this.nexts.get(key);
    if (next === undefined || next <= t) {
      // Drained (or never seen): the request starts at once and a new run of
      // starts begins. Nothing carries over from before, so however long the
      // key was idle, the next one waits a full I.
      const after = t + this.interval;
      this.nexts.set(key, after);
      return {
        allowed: true,
        remaining: this.capacity,
        resetAt: this.ceilMs(after),
        retryAt: now,
        startAt: now,
      };
    }
    // The request `capacity` places ahead of this one: while it waits, every
    // place is taken.
    const ahead = next - this.full;
    if (ahead > t) {
      return {
        allowed: false,
        remaining: 0,
        resetAt: this.ceilMs(next),
        retryAt: this.ceilMs(ahead),
        startAt: this.ms(next),
      };
    }
    const after = next + this.interval;
    this.nexts.set(key, after);
    return {
      allowed: true,
      remaining: Number((t - ahead) / this.interval),
      resetAt: this.ceilMs(after),
      retryAt: now,
      startAt: this.ms(next),
    };
  }

  /**
   * A time in ticks as milliseconds, within a few parts in 10^16: exact for a
   * whole millisecond while the ticks and p fit in 53 bits (one correctly
   * rounded division of two whole numbers).
   */
  private ms(ticks: bigint): number {
    return Number(ticks) / Number(this.perMs);
  }

  /** The first whole millisecond at or after a time in ticks (never < 0). */
  private ceilMs(ticks: bigint): number {
    return Number((ticks + this.perMs - 1n) / this.perMs);
  }

  /**
   * Lazy eviction: moves the hand on from where the last call left it, deleting
   * drained keys, until it has passed SWEEP_LIVE busy ones (or the end of the
   * map; the next call starts again from the front).
   */
  private sweep(t: bigint): void {
    let passed = 0;
    while (passed < SWEEP_LIVE) {
      const step = this.hand.next();
      if (step.done === true) {
        this.hand = this.nexts.entries();
        return;
      }
      const [key, next] = step.value;
      if (next <= t) this.nexts.delete(key);
      else passed += 1;
    }
  }
}
