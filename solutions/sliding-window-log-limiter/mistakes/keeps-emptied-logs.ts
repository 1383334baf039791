// Forgets idle keys with a clean-up that visits two keys per call, round-robin, and drops a key once
// its newest entry is a window old. But a call on a key whose entries have all aged out empties its
// log first, and an empty log has no newest entry: undefined + windowMs is NaN, NaN <= now is false,
// and the key stays until it is used again. Every key looked at just after it went idle is kept.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'bounded-memory' };

interface Log {
  key: string;
  /** Times of the accepted units, oldest first from `head`: a request of cost c is c entries. */
  times: number[];
  head: number;
}

export class SlidingWindowLogLimiter implements RateLimiter {
  private readonly logs = new Map<string, Log>();
  /** Every log once, in the order the clean-up visits them, from `front`. */
  private queue: Log[] = [];
  private front = 0;
  private mark = -Infinity;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(limit) || limit <= 0) throw new RangeError('limit');
    if (!Number.isInteger(windowMs) || windowMs <= 0) throw new RangeError('windowMs');
  }

  allow(key: string, cost: number = 1): RateLimitResult {
    return this.decide(key, cost, true);
  }

  peek(key: string, cost: number = 1): RateLimitResult {
    return this.decide(key, cost, false);
  }

  private decide(key: string, cost: number, consume: boolean): RateLimitResult {
    if (!Number.isInteger(cost) || cost <= 0) throw new RangeError('cost');
    const now = (this.mark = Math.max(this.mark, this.clock.now()));
    const W = this.windowMs;
    this.sweep(now);
    const log = this.logs.get(key);
    if (log !== undefined) {
      while (log.head < log.times.length && (log.times[log.head] as number) + W <= now) log.head++;
      if (log.head === log.times.length) {
        // Everything aged out: start the log afresh.
        log.times = [];
        log.head = 0;
      } else if (log.head >= 64 && log.head * 2 >= log.times.length) {
        log.times = log.times.slice(log.head);
        log.head = 0;
      }
    }
    const used = log === undefined ? 0 : log.times.length - log.head;
    if (used + cost > this.limit) {
      const times = log?.times ?? [];
      const head = log?.head ?? 0;
      return {
        allowed: false,
        remaining: this.limit - used,
        resetAt: used > 0 ? (times[times.length - 1] as number) + W : now,
        retryAt:
          cost > this.limit || log === undefined
            ? Infinity
            : (times[head + used + cost - this.limit - 1] as number) + W,
      };
    }
    if (consume) {
      let kept = log;
      if (kept === undefined) {
        kept = { key, times: [], head: 0 };
        this.logs.set(key, kept);
        this.queue.push(kept);
      }
      for (let i = 0; i < cost; i++) kept.times.push(now);
    }
    return { allowed: true, remaining: this.limit - used - cost, resetAt: now + W, retryAt: now };
  }

  /** Two keys a call, from the front; idle ones are dropped, the others go to the back. */
  private sweep(now: number): void {
    for (let i = 0; i < 2 && this.front < this.queue.length; i++) {
      const log = this.queue[this.front++] as Log;
      // The mistake: for an emptied log `newest` is undefined, and this test is never true.
      const newest = log.times[log.times.length - 1] as number;
      if (newest + this.windowMs <= now) this.logs.delete(log.key);
      else this.queue.push(log);
    }
    if (this.front >= 64 && this.front * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.front);
      this.front = 0;
    }
  }
}
