// Forgets keys oldest first: the keys wait in the order they were first seen, and each call drops
// those at the front whose whole log has aged out, stopping at the first one still in use. Fine
// while every key goes quiet in the order it came, but one key in use all along, seen early, keeps
// every key behind it, quiet or not.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'bounded-memory' };

interface Log {
  /** Times of the accepted units, oldest first from `head`: a request of cost c is c entries. */
  times: number[];
  head: number;
}

export class SlidingWindowLogLimiter implements RateLimiter {
  private readonly logs = new Map<string, Log>();
  /** Keys in the order they were first seen (since they were last forgotten), from `front`. */
  private order: string[] = [];
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
    this.forgetFromFront(now);
    const log = this.logs.get(key) ?? { times: [], head: 0 };
    const times = log.times;
    while (log.head < times.length && (times[log.head] as number) + W <= now) log.head++;
    if (log.head >= 64 && log.head * 2 >= times.length) {
      log.times = times.slice(log.head);
      log.head = 0;
    }
    const used = log.times.length - log.head;
    if (used + cost > this.limit) {
      return {
        allowed: false,
        remaining: this.limit - used,
        resetAt: used > 0 ? (log.times[log.times.length - 1] as number) + W : now,
        retryAt:
          cost > this.limit
            ? Infinity
            : (log.times[log.head + used + cost - this.limit - 1] as number) + W,
      };
    }
    if (consume) {
      for (let i = 0; i < cost; i++) log.times.push(now);
      if (!this.logs.has(key)) this.order.push(key);
      this.logs.set(key, log);
    }
    return { allowed: true, remaining: this.limit - used - cost, resetAt: now + W, retryAt: now };
  }

  /** The mistake: stops at the first key still in use, which may stay in use for ever. */
  private forgetFromFront(now: number): void {
    while (this.front < this.order.length) {
      const key = this.order[this.front] as string;
      const log = this.logs.get(key) as Log;
      if ((log.times[log.times.length - 1] as number) + this.windowMs > now) break;
      this.logs.delete(key);
      this.front++;
    }
    if (this.front >= 64 && this.front * 2 >= this.order.length) {
      this.order = this.order.slice(this.front);
      this.front = 0;
    }
  }
}
