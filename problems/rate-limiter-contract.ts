// The contract every design-round limiter kata shares; its rules are in rate-limiter-contract.md.
// Import these with `import type` (a solution may import nothing else): they vanish when compiled.

/** The time source a limiter is given: milliseconds, moved only by the caller. */
export interface Clock {
  now(): number;
}

export interface RateLimitResult {
  allowed: boolean;
  /** Integer >= 0: how many more requests of cost 1 would be allowed at this same instant. */
  remaining: number;
  /** The earliest whole millisecond from which, with no more requests, a cost-1 request would be
   *  answered as on a key never seen (now, if it already would). */
  resetAt: number;
  /** Allowed: now. Denied: the earliest whole millisecond at which this same request would be
   *  allowed, or Infinity if never. */
  retryAt: number;
}

export interface RateLimiter {
  /** Decides, and consumes only if allowed. */
  allow(key: string, cost?: number): RateLimitResult;
  /** The same answer allow() would give now, changing nothing. */
  peek(key: string, cost?: number): RateLimitResult;
}
