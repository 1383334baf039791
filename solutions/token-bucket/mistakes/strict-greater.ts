// Requires more than `cost` tokens: `>` where `>=` belongs, so exactly enough is refused.
export const expectation = { verdict: 'wrong-answer', trap: 'exact-tokens' };

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
    if (this.tokens > cost) {
      this.tokens -= cost;
      return true;
    }
    return false;
  }
}
