// Answers resetAt with the window's last millisecond instead of the first one of the next window.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'reset-and-retry' };

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
    const start = now - (now % this.windowMs);
    const end = start + this.windowMs;
    const entry = this.windows.get(key);
    const used = entry && entry.start === start ? entry.used : 0;
    const allowed = used + cost <= this.limit;
    const after = allowed ? used + cost : used;
    if (allowed && take) this.windows.set(key, { start, used: after });
    return {
      allowed,
      remaining: this.limit - after,
      resetAt: after > 0 ? end - 1 : now,
      retryAt: allowed ? now : cost <= this.limit ? end : Infinity,
    };
  }
}
