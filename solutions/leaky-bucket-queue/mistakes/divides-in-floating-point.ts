// The reference as it first stood: every start in floating-point milliseconds, computed as
// anchor + (j · 1000) / leakPerSecond, one division from where the run began. That never drifts,
// and it is exact at whole rates, but a decimal rate has no exact binary form: at 9.28 a second,
// start 145 is exactly 15 625 ms after the first, and 145000 / 9.28 comes out 15625.000000000002.
// At that millisecond the request still counts as waiting: a free place is reported taken, a
// request due then is refused, and retryAt and resetAt come out a millisecond late.
import type { Clock, RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'fractional-rate' };

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
