// Ignores a step back but still moves `last` back to it, so the same stretch of time is paid out twice.
export const expectation = { verdict: 'accepted', trap: 'clock-backwards' };

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
    const elapsed = Math.max(0, now - this.last);
    this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.rate);
    this.last = now;
    if (cost > this.capacity || this.tokens < cost - TOLERANCE * this.capacity) return false;
    this.tokens = Math.max(0, this.tokens - cost);
    return true;
  }
}
