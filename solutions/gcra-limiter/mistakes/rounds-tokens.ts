// Counts the tokens a key holds and rounds them to the nearest whole one before deciding, so a
// request passes as soon as half a token has come back: up to T/2 early.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'half-interval-early' };
export class GcraLimiter implements RateLimiter {
  private mark = -Infinity;
  private readonly tats = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly periodMs: number,
    private readonly burst: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(limit) || limit <= 0) throw new RangeError('bad limit');
    if (!Number.isInteger(periodMs) || periodMs <= 0) throw new RangeError('bad periodMs');
    if (!Number.isInteger(burst) || burst <= 0) throw new RangeError('bad burst');
  }

  allow(key: string, cost = 1): RateLimitResult {
    return this.decide(key, cost, true);
  }

  peek(key: string, cost = 1): RateLimitResult {
    return this.decide(key, cost, false);
  }

  private decide(key: string, cost: number, take: boolean): RateLimitResult {
    if (!Number.isInteger(cost) || cost <= 0) throw new RangeError('bad cost');
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    // Ticks of 1 / limit ms, in which T is periodMs.
    const t = now * this.limit;
    const capacity = this.burst * this.periodMs;
    const tat = Math.max(this.tats.get(key) ?? t, t);
    const next = tat + cost * this.periodMs;
    // The tokens held before this request, to the nearest whole one.
    const tokens = Math.round((capacity - (tat - t)) / this.periodMs);
    const allowed = tokens >= cost;
    const after = allowed ? next : tat;
    if (allowed && take) this.tats.set(key, after);
    return {
      allowed,
      remaining: Math.max(0, Math.round((capacity - (after - t)) / this.periodMs)),
      resetAt: after > t ? Math.ceil(after / this.limit) : now,
      retryAt: allowed
        ? now
        : cost > this.burst
          ? Infinity
          : Math.ceil((next - capacity - this.periodMs / 2) / this.limit),
    };
  }
}
