// Reference: a sliding-window log. Each key keeps the requests it accepted
// during the last `windowMs` milliseconds, oldest first; a request is allowed
// when the units still in the log plus its own cost fit in `limit`.
//
// Why it is right: a request accepted at time `a` counts while
// now < a + windowMs, so the window at `now` is (now − windowMs, now]. The log
// holds exactly the accepted requests in that window, because time only moves
// forward (see the high-water mark below): entries age out from the old end, in
// the order they went in, and a new entry always joins at the young end.
// Nothing is estimated: the count is exact at every millisecond.
//
// Cost: O(1) amortised time per call (each entry is appended once and aged out
// once; a denial adds a binary search over the key's log, O(log limit)).
// Memory: a request of cost c is one entry holding c units, and an entry is
// only added when the units fit, so a key never keeps more than `limit`
// entries; a key whose log has aged out entirely is dropped soon after
// (`forgetIdleKeys`).
//
// The answers, with used = units in the window and W = windowMs:
// - allowed when used + cost <= limit; then remaining = limit − used − cost,
//   resetAt = now + W (the new entry is the youngest and leaves last),
//   retryAt = now. peek answers the same, as if the request were consumed, and
//   consumes nothing.
// - denied otherwise; nothing is logged. remaining = limit − used, literally,
//   even when it is above 0 (the request was simply bigger than what is free).
//   resetAt = youngest entry + W, or now when the log is empty (only a request
//   larger than `limit` is denied on an empty log). retryAt: the request fits
//   once `used − (limit − cost)` units have aged out, and units age out oldest
//   first, so it is the time the entry holding that many-th oldest unit leaves;
//   Infinity if cost > limit.
//
// Traps it avoids:
// - aged-out-edge: an entry exactly W old no longer counts (`at + W <= now`
//   ages it out).
// - retry-from-oldest / cost-spans-entries: retryAt comes from the oldest units
//   that must leave, as many as the request needs, never from the youngest
//   entry.
// - denied-not-logged: only accepted requests are logged; a denial changes
//   nothing.
// - same-instant: entries are a list, not a set of times: ten requests in one
//   millisecond are ten.
// - clock-backwards: one high-water mark per limiter, raised by every call, is
//   the effective time.
// - injected-clock: time comes only from the injected clock.
// - bad-input: non-integer or non-positive limit, windowMs and cost throw
//   RangeError first.
// - scale: no Array.prototype.shift, no filtering the whole log per call (both
//   O(log length)).
// - bounded-memory: a clean-up visits two keys per call, round-robin, and drops
//   the idle ones.
import type { Clock, RateLimitResult, RateLimiter } from '../../problems/rate-limiter-contract.ts';

/**
 * One key's log of accepted requests, oldest first: a queue in a circular array
 * of pairs [at, total] — when a request was accepted, and the key's running
 * total of units accepted up to and including it. The running total turns "how
 * many units are in the window" and "which entry holds the k-th oldest unit"
 * into a subtraction and a binary search. The array doubles when full and is
 * otherwise reused as entries come and go: no shifting, no copying, no garbage.
 */
class KeyLog {
  private slots: number[];
  /** Capacity in pairs, minus 1 (the capacity is a power of two). */
  private mask = 1;
  /** Pair index of the oldest entry, and the number of entries. */
  private head = 0;
  private size = 1;
  /**
   * Units accepted so far, and units that have aged out: the window holds the
   * difference.
   */
  private total: number;
  private agedOut = 0;

  constructor(
    /** The key it belongs to, so the clean-up can remove it from the map. */
    readonly key: string,
    at: number,
    cost: number,
  ) {
    this.slots = [at, cost, 0, 0];
    this.total = cost;
  }

  /** Units still in the window. */
  get used(): number {
    return this.total - this.agedOut;
  }

  /** When the i-th oldest entry was accepted (0 <= i < size). */
  private at(i: number): number {
    return this.slots[2 * ((this.head + i) & this.mask)] as number;
  }

  /** The running total through the i-th oldest entry. */
  private totalThrough(i: number): number {
    return this.slots[2 * ((this.head + i) & this.mask) + 1] as number;
  }

  /** Time of the youngest entry; -Infinity when every entry has aged out. */
  get youngest(): number {
    return this.size > 0 ? this.at(this.size - 1) : -Infinity;
  }

  append(at: number, cost: number): void {
    if (this.size > this.mask) this.grow();
    this.total += cost;
    const slot = 2 * ((this.head + this.size) & this.mask);
    this.slots[slot] = at;
    this.slots[slot + 1] = this.total;
    this.size += 1;
  }

  /**
   * Drops the entries accepted at or before `cutoff` (= now − W): they are W or
   * more old.
   */
  ageOut(cutoff: number): void {
    while (this.size > 0 && this.at(0) <= cutoff) {
      this.agedOut = this.totalThrough(0);
      this.head = (this.head + 1) & this.mask;
      this.size -= 1;
    }
  }

  /**
   * The time of the entry holding the k-th oldest unit in the window
   * (1 <= k <= used).
   */
  entryHoldingUnit(k: number): number {
    const target = this.agedOut + k;
    // The first entry whose running total reaches the target; totals increase
    // along the log.
    let lo = 0;
    let hi = this.size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.totalThrough(mid) >= target) hi = mid;
      else lo = mid + 1;
    }
    return this.at(lo);
  }

  /**
   * Doubles the capacity, copying the entries oldest first to the start of the
   * new array.
   */
  private grow(): void {
    const slots: number[] = [];
    for (let i = 0; i < this.size; i++) slots.push(this.at(i), this.totalThrough(i));
    while (slots.length < 4 * (this.mask + 1)) slots.push(0);
    this.slots = slots;
    this.mask = 2 * this.mask + 1;
    this.head = 0;
  }
}

function checkCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
}

/**
 * Keys the clean-up looks at on every call: one more than a call can add, so it
 * keeps up.
 */
const KEYS_CHECKED_PER_CALL = 2;

export class SlidingWindowLogLimiter implements RateLimiter {
  private readonly logs = new Map<string, KeyLog>();
  /**
   * Every log of `logs` exactly once, in the order the clean-up visits them: a
   * queue over an array, read from `cursor` on. See `forgetIdleKeys`.
   */
  private rounds: KeyLog[] = [];
  private cursor = 0;
  /**
   * The latest clock reading seen by any call: the effective time never goes
   * below it.
   */
  private mark = -Infinity;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {
    checkCount('limit', limit);
    checkCount('windowMs', windowMs);
  }

  allow(key: string, cost: number = 1): RateLimitResult {
    return this.decide(key, cost, true);
  }

  peek(key: string, cost: number = 1): RateLimitResult {
    return this.decide(key, cost, false);
  }

  private decide(key: string, cost: number, consume: boolean): RateLimitResult {
    // before anything changes: a call that throws changes nothing
    checkCount('cost', cost);
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    // entries accepted at or before it have aged out
    const cutoff = now - this.windowMs;
    this.forgetIdleKeys(cutoff);

    const log = this.logs.get(key);
    log?.ageOut(cutoff);
    const used = log?.used ?? 0;

    if (used + cost > this.limit) {
      return {
        allowed: false,
        remaining: this.limit - used,
        resetAt: log !== undefined && used > 0 ? log.youngest + this.windowMs : now,
        retryAt:
          cost > this.limit || log === undefined
            ? Infinity
            : log.entryHoldingUnit(used - (this.limit - cost)) + this.windowMs,
      };
    }
    if (consume) {
      if (log !== undefined) {
        log.append(now, cost);
      } else {
        const created = new KeyLog(key, now, cost);
        this.logs.set(key, created);
        this.rounds.push(created);
      }
    }
    return {
      allowed: true,
      remaining: this.limit - used - cost,
      resetAt: now + this.windowMs,
      retryAt: now,
    };
  }

  /**
   * A key whose youngest entry has aged out answers like a key never seen, so
   * it can go. Keys wait in a queue; every call takes the next two from its
   * front, drops them if idle and sends them to the back otherwise. A call adds
   * at most one key, so a key that goes idle is dropped within (keys kept) / 2
   * calls, and the limiter never keeps more than about twice the keys active in
   * the last window. It costs O(1) per call, with no pause to sweep the whole
   * map at once.
   */
  private forgetIdleKeys(cutoff: number): void {
    for (let i = 0; i < KEYS_CHECKED_PER_CALL && this.cursor < this.rounds.length; i++) {
      const log = this.rounds[this.cursor++] as KeyLog;
      if (log.youngest <= cutoff) this.logs.delete(log.key);
      else this.rounds.push(log);
    }
    if (this.cursor >= 64 && this.cursor * 2 >= this.rounds.length) {
      this.rounds = this.rounds.slice(this.cursor);
      this.cursor = 0;
    }
  }
}
