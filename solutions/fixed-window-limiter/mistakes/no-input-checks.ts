// The reference without a single input check: a limit, window or cost of 0, negative, fractional,
// NaN or infinite goes through, and the arithmetic does what it does with it.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'bad-input' };

export class FixedWindowLimiter implements RateLimiter {
  /**
   * The latest clock reading seen by any call: the limiter's "now" never goes
   * below it.
   */
  private mark = -Infinity;
  /**
   * Where the current window starts; `used` holds counts for this window only.
   */
  private windowStart = -Infinity;
  private used = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  allow(key: string, cost: number = 1): RateLimitResult {
    return this.decide(key, cost, true);
  }

  peek(key: string, cost: number = 1): RateLimitResult {
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

  /**
   * Reads the clock, raises the mark, and starts a fresh window once the mark
   * has left the old.
   */
  private tick(): number {
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    // `%` of two integers is exact in floating point; the second `%` handles
    // times below zero.
    const start = now - (((now % this.windowMs) + this.windowMs) % this.windowMs);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.used = new Map();
    }
    return now;
  }
}
