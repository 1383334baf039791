// Keeps one count for the whole limiter and ignores the key, so every key spends the same quota.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'key-isolation' };

export class FixedWindowLimiter implements RateLimiter {
  private start = -Infinity;
  private used = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  allow(_key: string, cost = 1): RateLimitResult {
    return this.decide(cost, true);
  }

  peek(_key: string, cost = 1): RateLimitResult {
    return this.decide(cost, false);
  }

  private decide(cost: number, take: boolean): RateLimitResult {
    const now = this.clock.now();
    const start = now - (now % this.windowMs);
    if (start !== this.start) {
      this.start = start;
      this.used = 0;
    }
    const end = start + this.windowMs;
    const allowed = this.used + cost <= this.limit;
    const after = allowed ? this.used + cost : this.used;
    if (allowed && take) this.used = after;
    return {
      allowed,
      remaining: this.limit - after,
      resetAt: after > 0 ? end : now,
      retryAt: allowed ? now : cost <= this.limit ? end : Infinity,
    };
  }
}
