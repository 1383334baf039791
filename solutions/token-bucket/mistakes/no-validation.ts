// Right for every sensible input, but accepts NaN, Infinity, zero rates and negative costs without a word.
export const expectation = { verdict: 'accepted', trap: 'bad-input' };

const TOLERANCE = 1e-9;

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
    if (now > this.last) {
      this.tokens = Math.min(this.capacity, this.tokens + (now - this.last) * this.rate);
      this.last = now;
    }
    if (cost > this.capacity || this.tokens < cost - TOLERANCE * this.capacity) return false;
    this.tokens = Math.max(0, this.tokens - cost);
    return true;
  }
}
