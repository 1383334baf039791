// Defaults the cost with `||`, so a request of cost 0 is charged as cost 1.
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

  allow(now: number, cost?: number): boolean {
    const need = cost || 1;
    this.tokens = Math.min(this.capacity, this.tokens + (now - this.last) * this.rate);
    this.last = now;
    if (this.tokens < need) return false;
    this.tokens -= need;
    return true;
  }
}
