// Starts the bucket empty, so a new client must wait for tokens before its first request.
export const expectation = { verdict: 'wrong-answer', trap: 'starts-full' };

export class TokenBucket {
  private tokens = 0;
  private last = 0;

  constructor(
    private readonly rate: number,
    private readonly capacity: number,
  ) {}

  allow(now: number, cost: number = 1): boolean {
    this.tokens = Math.min(this.capacity, this.tokens + (now - this.last) * this.rate);
    this.last = now;
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }
}
