// Right for every sensible input, but takes a zero, negative, fractional, NaN or infinite limit,
// window or cost without a word.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'bad-input' };

export class FixedWindowLimiter implements RateLimiter {
  private mark = -Infinity;
  private windowStart = -Infinity;
  private used = new Map<string, number>();

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
    const now = this.tick();
    const end = this.windowStart + this.windowMs;
    const used = this.used.get(key) ?? 0;
    const allowed = used + cost <= this.limit;
    const after = allowed ? used + cost : used;
    if (allowed && take) this.used.set(key, after);
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
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.used = new Map();
    }
    return now;
  }
}
