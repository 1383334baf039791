// Counts only whole seconds of elapsed time, so calls a fraction of a second apart earn nothing.
export const expectation = { verdict: 'wrong-answer', trap: 'fractional-time' };

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
    const elapsed = Math.floor(now - this.last);
    this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.rate);
    this.last = now;
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }
}
