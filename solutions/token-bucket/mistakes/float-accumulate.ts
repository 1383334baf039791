// Correct in exact arithmetic, but compares the accumulated float with a plain `>=`: drift refuses a due request.
export const expectation = { verdict: 'accepted', trap: 'float-drift' };

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
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }
}
