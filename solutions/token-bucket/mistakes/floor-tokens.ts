// Keeps a whole number of tokens, so the fraction a slow rate earns between calls is thrown away.
export const expectation = { verdict: 'wrong-answer', trap: 'fractional-rate' };

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
    this.tokens = Math.floor(Math.min(this.capacity, this.tokens + (now - this.last) * this.rate));
    this.last = now;
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }
}
