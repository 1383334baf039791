// Keeps the logs and the clock's high-water mark at module level, so every limiter shares them.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'instance-isolation' };

interface Log {
  /** Times of the accepted units, oldest first from `head`: a request of cost c is c entries. */
  times: number[];
  head: number;
}

const logs = new Map<string, Log>();
let queue: string[] = [];
let cursor = 0;
let mark = -Infinity;

export class SlidingWindowLogLimiter implements RateLimiter {
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
    const now = (mark = Math.max(mark, this.clock.now()));
    const W = this.windowMs;
    this.forget(now);
    const log = logs.get(key) ?? { times: [], head: 0 };
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
      if (!logs.has(key)) {
        logs.set(key, log);
        queue.push(key);
      }
    }
    return { allowed: true, remaining: this.limit - used - cost, resetAt: now + W, retryAt: now };
  }

  /** Looks at two keys per call, round-robin, and drops those whose log has aged out. */
  private forget(now: number): void {
    for (let i = 0; i < 2 && cursor < queue.length; i++) {
      const key = queue[cursor++] as string;
      const times = (logs.get(key) as Log).times;
      const newest = times[times.length - 1];
      if (newest === undefined || newest + this.windowMs <= now) logs.delete(key);
      else queue.push(key);
    }
    if (cursor >= 64 && cursor * 2 >= queue.length) {
      queue = queue.slice(cursor);
      cursor = 0;
    }
  }
}
