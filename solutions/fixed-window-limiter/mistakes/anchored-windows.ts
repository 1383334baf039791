// Starts each key's window at its first request instead of at a multiple of the window length, so
// the windows of a key are not the clock's windows [k·W, (k+1)·W).
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'window-edge' };

export class FixedWindowLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; used: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  allow(key: string, cost = 1): RateLimitResult {
    return this.decide(key, cost, true);
  }

  peek(key: string, cost = 1): RateLimitResult {
    return this.decide(key, cost, false);
  }

  private decide(key: string, cost: number, take: boolean): RateLimitResult {
    const now = this.clock.now();
    let entry = this.windows.get(key);
    if (!entry || now >= entry.start + this.windowMs) entry = { start: now, used: 0 };
    const end = entry.start + this.windowMs;
    const allowed = entry.used + cost <= this.limit;
    const after = allowed ? entry.used + cost : entry.used;
    if (allowed && take) this.windows.set(key, { start: entry.start, used: after });
    return {
      allowed,
      remaining: this.limit - after,
      resetAt: after > 0 ? end : now,
      retryAt: allowed ? now : cost <= this.limit ? end : Infinity,
    };
  }
}
