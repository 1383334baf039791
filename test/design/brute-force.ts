// The shared contract's definitions of `remaining`, `resetAt` and `retryAt`, computed by trying, not
// by formula. A design kata describes its algorithm only as `admits`: given the requests a key has
// accepted so far, would a request of this cost be allowed at this time? Everything else follows by
// search, slowly and obviously, so a test can hold a reference's formulas to these definitions.
import type { RateLimitResult } from '../../problems/rate-limiter-contract.ts';

/** A request a key accepted: when (effective time), and its cost. */
export interface Accepted {
  at: number;
  cost: number;
}

export interface Algorithm {
  /** Whether a request of `cost` at `now` is allowed, given what the key accepted before. */
  admits(accepted: readonly Accepted[], now: number, cost: number): boolean;
  /** How far ahead to search for retryAt and resetAt: beyond it, "never" (Infinity). */
  horizonMs: number;
}

/** The answer to `allow(key, cost)` at `now` (already the effective time) by the definitions. */
export function decide(
  algorithm: Algorithm,
  accepted: readonly Accepted[],
  now: number,
  cost: number,
): RateLimitResult {
  const allowed = algorithm.admits(accepted, now, cost);
  const after = allowed ? [...accepted, { at: now, cost }] : accepted;
  return {
    allowed,
    remaining: remainingAt(algorithm, after, now),
    resetAt: resetAt(algorithm, after, now),
    retryAt: allowed ? now : retryAt(algorithm, accepted, now, cost),
  };
}

/** How many cost-1 requests in a row would be allowed at `now`. */
export function remainingAt(
  algorithm: Algorithm,
  accepted: readonly Accepted[],
  now: number,
): number {
  const log = [...accepted];
  let count = 0;
  while (algorithm.admits(log, now, 1)) {
    log.push({ at: now, cost: 1 });
    count += 1;
  }
  return count;
}

/** The earliest whole millisecond >= now at which this request would be allowed; Infinity if never. */
export function retryAt(
  algorithm: Algorithm,
  accepted: readonly Accepted[],
  now: number,
  cost: number,
): number {
  for (let t = now; t <= now + algorithm.horizonMs; t++) {
    if (algorithm.admits(accepted, t, cost)) return t;
  }
  return Infinity;
}

/**
 * The earliest whole millisecond >= now from which on, with no more requests, a cost-1 request is
 * answered (allowed and remaining) as on a key never seen.
 */
export function resetAt(algorithm: Algorithm, accepted: readonly Accepted[], now: number): number {
  const asNew = (t: number): boolean =>
    algorithm.admits(accepted, t, 1) === algorithm.admits([], t, 1) &&
    remainingAt(algorithm, accepted, t) === remainingAt(algorithm, [], t);
  let last = now + algorithm.horizonMs;
  if (!asNew(last)) return Infinity;
  // Scan backwards for the start of the final run of "answers as new".
  while (last > now && asNew(last - 1)) last -= 1;
  return last;
}
