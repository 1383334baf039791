// Sends a denied request back when the oldest entry ages out, whatever its cost: right for cost 1, too early when it needs more room.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'cost-spans-entries' };

interface Log {
  /** Times of the accepted units, oldest first from `head`: a request of cost c is c entries. */
  times: number[];
  head: number;
}

export class SlidingWindowLogLimiter implements RateLimiter {
  private readonly logs = new Map<string, Log>();
  private queue: string[] = [];
  private cursor = 0;
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
    this.forget(now);
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
        retryAt: cost > this.limit ? Infinity : (log.times[log.head] as number) + W,
      };
    }
    if (consume) {
      for (let i = 0; i < cost; i++) log.times.push(now);
      if (!this.logs.has(key)) {
        this.logs.set(key, log);
        this.queue.push(key);
      }
    }
    return { allowed: true, remaining: this.limit - used - cost, resetAt: now + W, retryAt: now };
  }

  /** Looks at two keys per call, round-robin, and drops those whose log has aged out. */
  private forget(now: number): void {
    for (let i = 0; i < 2 && this.cursor < this.queue.length; i++) {
      const key = this.queue[this.cursor++] as string;
      const times = (this.logs.get(key) as Log).times;
      const newest = times[times.length - 1];
      if (newest === undefined || newest + this.windowMs <= now) this.logs.delete(key);
      else this.queue.push(key);
    }
    if (this.cursor >= 64 && this.cursor * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.cursor);
      this.cursor = 0;
    }
  }
}
