// Builds a sliding-window log instead: it counts the requests of the last W milliseconds, so it
// refuses the second burst right after a window edge, which a fixed window allows.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'boundary-burst' };

export class FixedWindowLimiter implements RateLimiter {
  private readonly logs = new Map<string, { at: number; cost: number }[]>();

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
    const log = (this.logs.get(key) ?? []).filter((e) => e.at > now - this.windowMs);
    const used = log.reduce((sum, e) => sum + e.cost, 0);
    const allowed = used + cost <= this.limit;
    const after = allowed ? [...log, { at: now, cost }] : log;
    if (allowed && take) this.logs.set(key, after);
    const left = this.limit - after.reduce((sum, e) => sum + e.cost, 0);
    // Waits until enough of the oldest requests have slid out of the window.
    let retryAt = now;
    if (!allowed) {
      retryAt = Infinity;
      if (cost <= this.limit) {
        let freed = this.limit - used;
        for (const e of log) {
          freed += e.cost;
          if (freed >= cost) {
            retryAt = e.at + this.windowMs;
            break;
          }
        }
      }
    }
    const last = after[after.length - 1];
    return {
      allowed,
      remaining: left,
      resetAt: last ? last.at + this.windowMs : now,
      retryAt,
    };
  }
}
