// Applies the cap only after spending, so the request right after an idle spell sees too many tokens.
export const expectation = { verdict: 'wrong-answer', trap: 'refill-cap' };

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
    this.tokens += (now - this.last) * this.rate;
    this.last = now;
    if (this.tokens < cost) return false;
    this.tokens = Math.min(this.capacity, this.tokens - cost);
    return true;
  }
}
