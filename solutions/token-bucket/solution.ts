// Reference: a token bucket that keeps two numbers — the tokens it holds and
// the time it last looked at the clock — and works out the refill owed for the
// time in between only when a request arrives.
//
// Why it is right: tokens accrue at `rate` per second of elapsed time and are
// capped at `capacity`, so the level at any moment is min(capacity, level at
// the last call + elapsed · rate). Computing that when the next request arrives
// gives the same level a background timer would have reached, without the
// timer: the bucket does no work while nobody calls it. A request is granted
// when the level covers its cost (`>=`: exactly enough is enough), and only a
// granted request takes tokens; a denied one leaves the bucket as it found it.
//
// Cost: O(1) time per call and O(1) memory per bucket, whatever the traffic.
//
// Traps it avoids:
// - starts full: `tokens = capacity`, so a fresh bucket serves a burst of
//   `capacity` at once.
// - refill cap: the refill is clamped to `capacity`, however long the bucket
//   sat idle.
// - cost over capacity: a request larger than the bucket can never be served,
//   so it is refused at once; nothing waits for tokens, since the caller owns
//   the clock and it will not move while we wait. That test is exact and comes
//   before the tolerant one: the level never exceeds `capacity`, so leaving it
//   to the tolerance would let a cost a hair above the capacity through.
// - clock going backwards: only time after the latest `now` seen mints tokens.
//   An earlier `now` acts as that latest time (elapsed 0) and does not move
//   `last` back, so the same stretch of time is never paid out twice when the
//   clock catches up.
// - float drift: see `TOLERANCE` below.
// - bad input: non-finite or non-positive settings, and non-finite times or
//   negative costs, throw RangeError before any state changes.

/**
 * How far below `cost` the level may be and still count as enough, as a
 * fraction of `capacity`.
 *
 * Rates such as 0.1 have no exact binary form, so the level picks up a rounding
 * error of up to half a unit in the last place of a number no bigger than
 * `capacity` (about 1.1e-16 · capacity) on each refill. At rate 0.1, ten
 * one-second refills of 0.1 token sum to 0.9999999999999999, and a plain `>=`
 * would refuse a request that is exactly due. Comparing with a tolerance
 * relative to the bucket's size absorbs millions of such errors while staying
 * far below anything a caller can observe: a billionth of the bucket. (Keeping
 * time in exact integer units would not be enough on its own: `elapsed · rate`
 * is still inexact for a rate like 0.1.)
 */
const TOLERANCE = 1e-9;

export class TokenBucket {
  private tokens: number;
  /**
   * The latest time seen; undefined until the first call, since the bucket
   * starts full anyway.
   */
  private last: number | undefined;

  constructor(
    private readonly rate: number,
    private readonly capacity: number,
  ) {
    if (!Number.isFinite(rate) || rate <= 0) {
      throw new RangeError(`rate must be a finite number > 0, got ${rate}`);
    }
    if (!Number.isFinite(capacity) || capacity <= 0) {
      throw new RangeError(`capacity must be a finite number > 0, got ${capacity}`);
    }
    this.tokens = capacity;
  }

  allow(now: number, cost: number = 1): boolean {
    if (!Number.isFinite(now)) throw new RangeError(`now must be a finite number, got ${now}`);
    if (!Number.isFinite(cost) || cost < 0) {
      throw new RangeError(`cost must be a finite number >= 0, got ${cost}`);
    }
    this.refill(now);
    // can never fit: refuse now rather than wait (exact, no tolerance)
    if (cost > this.capacity) return false;
    // denied: takes nothing
    if (this.tokens < cost - TOLERANCE * this.capacity) return false;
    // Within the tolerance the level may sit a hair below cost; do not carry
    // that as a debt.
    this.tokens = Math.max(0, this.tokens - cost);
    return true;
  }

  /**
   * Adds what accrued since the latest time seen; an earlier `now` adds nothing
   * and moves nothing.
   */
  private refill(now: number): void {
    if (this.last === undefined) {
      this.last = now;
      return;
    }
    if (now <= this.last) return;
    this.tokens = Math.min(this.capacity, this.tokens + (now - this.last) * this.rate);
    this.last = now;
  }
}
