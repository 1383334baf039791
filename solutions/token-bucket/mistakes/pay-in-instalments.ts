// Pays for a request bigger than the bucket in instalments, waiting for tokens on a clock that never moves.
export const expectation = { verdict: 'time-limit-exceeded', trap: 'cost-over-capacity' };

export class TokenBucket {
  private tokens: number;
  private last = 0;

  constructor(
    private readonly rate: number,
    private readonly capacity: number,
  ) {
    this.tokens = capacity;
  }

  private refill(now: number): void {
    this.tokens = Math.min(this.capacity, this.tokens + (now - this.last) * this.rate);
    this.last = now;
  }

  allow(now: number, cost: number = 1): boolean {
    this.refill(now);
    if (cost > this.capacity) {
      let owed = cost;
      while (owed > 0) {
        this.refill(now);
        const paid = Math.min(owed, this.tokens);
        this.tokens -= paid;
        owed -= paid;
      }
      return true;
    }
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }
}
