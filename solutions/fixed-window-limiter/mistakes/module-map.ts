// Keeps the window and its counts at module level, so every limiter shares them.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'instance-isolation' };

let windowStart = -Infinity;
let used = new Map<string, number>();

export class FixedWindowLimiter implements RateLimiter {
  private mark = -Infinity;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(limit) || limit <= 0) throw new RangeError('bad limit');
    if (!Number.isInteger(windowMs) || windowMs <= 0) throw new RangeError('bad windowMs');
  }

  allow(key: string, cost = 1): RateLimitResult {
    return this.decide(key, cost, true);
  }

  peek(key: string, cost = 1): RateLimitResult {
    return this.decide(key, cost, false);
  }

  private decide(key: string, cost: number, take: boolean): RateLimitResult {
    if (!Number.isInteger(cost) || cost <= 0) throw new RangeError('bad cost');
    const now = this.tick();
    const end = windowStart + this.windowMs;
    const count = used.get(key) ?? 0;
    const allowed = count + cost <= this.limit;
    const after = allowed ? count + cost : count;
    if (allowed && take) used.set(key, after);
    return {
      allowed,
      remaining: this.limit - after,
      resetAt: after > 0 ? end : now,
      retryAt: allowed ? now : cost <= this.limit ? end : Infinity,
    };
  }

  private tick(): number {
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    const start = now - (now % this.windowMs);
    if (start !== windowStart) {
      windowStart = start;
      used = new Map();
    }
    return now;
  }
}
