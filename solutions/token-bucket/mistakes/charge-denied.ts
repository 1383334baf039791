// Spends first and checks after, so a refused request still takes its tokens (the level goes negative).
export const expectation = { verdict: 'wrong-answer', trap: 'denied-is-free' };

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
    this.tokens -= cost;
    return this.tokens >= 0;
  }
}
