// Checks the request's cost but always spends a single token.
export const expectation = { verdict: 'wrong-answer', trap: 'weighted-cost' };

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
    if (this.tokens < cost) return false;
    this.tokens -= 1;
    return true;
  }
}
