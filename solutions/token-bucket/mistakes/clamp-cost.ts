// Clamps the cost to the capacity, so a request bigger than the bucket is served by a full bucket.
export const expectation = { verdict: 'wrong-answer', trap: 'cost-over-capacity' };

export class TokenBucket {
  private tokens: number;
  private last = 0;

  constructor(
    private readonly rate: number,
    private readonly capacity: number,
  ) {
    this.tokens = capacity;
  }

  allow(now: number, cost: number = 1): boolean {
    this.tokens = Math.min(this.capacity, this.tokens + (now - this.last) * this.rate);
    this.last = now;
    const need = Math.min(cost, this.capacity);
    if (this.tokens < need) return false;
    this.tokens -= need;
    return true;
  }
}
