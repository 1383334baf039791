// Reference: a leaky-bucket queue (a shaper). Each key has a queue that lets
// one request through every I = 1000 / leakPerSecond milliseconds; `submit`
// either gives a request its place in that queue, with the time it will start,
// or refuses it because `capacity` requests are already waiting.
//
// State per key: a chain of back-to-back starts. `anchor` is when the chain
// began (a request that found its key's queue empty starts at once) and `count`
// how many requests it has accepted since, so request j of the chain starts at
// anchor + j·I, and the next one would start at `next = anchor + count·I`.
// Nothing else is needed: starts are exactly one interval apart, so which of
// them are still waiting at any time follows from the anchor alone.
//
// Why it is right. A new request starts at max(now, next): at once if the queue
// has drained (next <= now; the chain ends and a new one begins at now, so an
// idle key never builds up credit for a burst), else right after the last one
// queued. Waiting means "starts later than now", so a request whose start is
// now or earlier holds no slot, and a slot frees at the very moment its request
// starts. The new request fits if fewer than `capacity` requests are waiting,
// that is if the request `capacity` places before it in the chain (number
// count - capacity) has started: anchor + (count - capacity)·I <= now. A
// refused request changes nothing.
//
// The answer (after this request, if accepted):
// - startAt  = max(now, next); for a refused request, the start it would have
//   had.
// - remaining = capacity - (requests still waiting, this one included): free
//   waiting slots.
// - retryAt  = now if accepted; else the first whole millisecond at which the
//   request `capacity` places ahead has started: ceil(anchor + (count -
//   capacity)·I).
// - resetAt  = the first whole millisecond from which the queue is drained (the
//   key then answers like a new one: its request starts at once, with every
//   slot free): ceil(next).
//
// Exactness: every start is computed as anchor + (j·1000) / leakPerSecond, one
// division, never by adding I again and again. Each addition rounds, and far
// from zero it rounds the same way every time: a busy chain of hundreds of
// requests ends microseconds off. The closed form is off by about an ulp
// whatever the chain's length, and exact whenever the true start is a whole
// millisecond at a whole rate (a correctly rounded division of two integers).
//
// Memory: a key whose queue has drained answers like a key never seen, so its
// chain can go (contract rule 7). Eviction is lazy and driven by the calls,
// never by timers: a live iterator over the map (the hand) goes round it, a
// little per call, from where the last call left it. It deletes every drained
// chain it meets and stops once it has passed SWEEP_LIVE busy ones. Each chain
// is deleted once and each call passes at most SWEEP_LIVE busy ones, so a call
// costs O(1) amortised; the hand goes round in about (busy entries) /
// SWEEP_LIVE calls, so a drained key is gone soon after it drains. A busy key
// cannot shield the dead ones behind it, as it would for a sweep that only pops
// drained keys off the front of the map. A key with requests still waiting is
// never dropped.
//
// Clock faults: one high-water mark for the whole queue; a reading below it
// acts as the mark.
//
// Cost: O(1) amortised per call. Memory O(keys with a request waiting or
// starting in the last interval), plus those drained since the hand last
// passed.
//
// Traps it avoids: no credit after idleness (no-burst-after-idle), starts
// exactly I apart from the previous start, not from the submission (spacing),
// capacity + 1 at one instant (queue-full), `<=` at a start (drained-slot),
// refused requests never counted (rejected-not-queued), a Map per instance
// (key-isolation, instance-isolation, prototype-keys), the clock given
// (injected-clock), ceil for retryAt and resetAt (reset-and-retry), the
// high-water mark (clock-backwards), validation first (bad-input), any positive
// rate and the closed form (fractional-rate), the sweep (idle-eviction).
import type { Clock, RateLimitResult } from '../../problems/rate-limiter-contract.ts';

/**
 * The contract's answer, and when the request is let through (a refused one:
 * would have been).
 */
export type QueueResult = RateLimitResult & { startAt: number };

/**
 * A run of back-to-back starts: request j starts at anchor + j·I, for j <
 * count.
 */
interface Chain {
  anchor: number;
  count: number;
}

/** How many busy chains the sweep passes over in one call, at most. */
const SWEEP_LIVE = 2;

export class LeakyBucketQueue {
  /** The latest clock reading seen: the queue's "now" never goes below it. */
  private mark = -Infinity;
  private readonly chains = new Map<string, Chain>();
  /**
   * Where the sweep goes on from. A Map's iterator is live: it sees entries
   * added after it was made and skips the ones deleted, so one hand can go
   * round and round, a few entries per call.
   */
  private hand: MapIterator<[string, Chain]> = this.chains.entries();

  constructor(
    private readonly capacity: number,
    private readonly leakPerSecond: number,
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
  }

  submit(key: string): QueueResult {
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    this.sweep(now);
    const capacity = this.capacity;
    const chain = this.chains.get(key);
    if (chain === undefined || this.startOf(chain, chain.count) <= now) {
      // Drained (or never seen): the request starts at once and a new chain
      // begins. Nothing carries over from before, so however long the key was
      // idle, the next one waits a full I.
      if (chain === undefined) this.chains.set(key, { anchor: now, count: 1 });
      else {
        chain.anchor = now;
        chain.count = 1;
      }
      return {
        allowed: true,
        remaining: capacity,
        resetAt: Math.ceil(now + 1000 / this.leakPerSecond),
        retryAt: now,
        startAt: now,
      };
    }
    const startAt = this.startOf(chain, chain.count);
    // The request `capacity` places ahead of this one: while it waits, every
    // slot is taken.
    const ahead = this.startOf(chain, chain.count - capacity);
    if (ahead > now) {
      return {
        allowed: false,
        remaining: 0,
        resetAt: Math.ceil(startAt),
        retryAt: Math.ceil(ahead),
        startAt,
      };
    }
    chain.count += 1;
    return {
      allowed: true,
      remaining: capacity - this.waiting(chain, now),
      resetAt: Math.ceil(this.startOf(chain, chain.count)),
      retryAt: now,
      startAt,
    };
  }

  /**
   * When request j of the chain starts: one rounding, so no drift however long
   * the chain.
   */
  private startOf(chain: Chain, j: number): number {
    return chain.anchor + (j * 1000) / this.leakPerSecond;
  }

  /**
   * How many of the chain's requests start later than now (at most capacity).
   */
  private waiting(chain: Chain, now: number): number {
    // The estimate from the elapsed time is right but for rounding at a start
    // that falls exactly on now; the two loops settle that against startOf
    // itself, so that this count always agrees with the comparisons in submit.
    // They run once or twice at most.
    let started = Math.floor(((now - chain.anchor) * this.leakPerSecond) / 1000) + 1;
    if (started > chain.count) started = chain.count;
    while (started < chain.count && this.startOf(chain, started) <= now) started += 1;
    while (started > 0 && this.startOf(chain, started - 1) > now) started -= 1;
    return chain.count - started;
  }

  /**
   * Lazy eviction: moves the hand on from where the last call left it, deleting
   * drained chains, until it has passed SWEEP_LIVE busy ones (or the end of the
   * map; the next call starts again from the front).
   */
  private sweep(now: number): void {
    let passed = 0;
    while (passed < SWEEP_LIVE) {
      const step = this.hand.next();
      if (step.done === true) {
        this.hand = this.chains.entries();
        return;
      }
      const [key, chain] = step.value;
      if (this.startOf(chain, chain.count) <= now) this.chains.delete(key);
      else passed += 1;
    }
  }
}
