// Leaves a cost over the capacity to the tolerant comparison that absorbs float drift: a cost a hair
// above the capacity counts as within rounding of a full bucket, and is served.
export const expectation = { verdict: 'accepted', trap: 'cost-over-capacity' };

const TOLERANCE = 1e-9;

export class TokenBucket {
  private tokens: number;
  private last = 0;

  constructor(
    private readonly rate: number,
    private readonly capacity: number,
  ) {
    if (!Number.isFinite(rate) || rate <= 0) throw new RangeError('bad rate');
    if (!Number.isFinite(capacity) || capacity <= 0) throw new RangeError('bad capacity');
    this.tokens = capacity;
  }

  allow(now: number, cost: number = 1): boolean {
    if (!Number.isFinite(now)) throw new RangeError('bad now');
    if (!Number.isFinite(cost) || cost < 0) throw new RangeError('bad cost');
    if (now > this.last) {
      this.tokens = Math.min(this.capacity, this.tokens + (now - this.last) * this.rate);
      this.last = now;
    }
    // No test of cost against capacity: the level never exceeds the capacity, so this seems to cover it.
    if (this.tokens < cost - TOLERANCE * this.capacity) return false;
    this.tokens = Math.max(0, this.tokens - cost);
    return true;
  }
}
