// Never caps the refill, so a long idle spell banks far more than `capacity` tokens.
export const expectation = { verdict: 'wrong-answer', trap: 'refill-cap' };

export class TokenBucket {
  private tokens: number;
  private last = 0;

  constructor(
    private readonly rate: number,
    capacity: number,
  ) {
    this.tokens = capacity;
  }

  allow(now: number, cost: number = 1): boolean {
    this.tokens += (now - this.last) * this.rate;
    this.last = now;
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }
}
