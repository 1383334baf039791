// Keeps the tokens and the clock at module level, so every bucket shares one level.
export const expectation = { verdict: 'wrong-answer', trap: 'instance-isolation' };

let tokens = 0;
let last = 0;

export class TokenBucket {
  constructor(
    private readonly rate: number,
    private readonly capacity: number,
  ) {
    tokens = capacity;
    last = 0;
  }

  allow(now: number, cost: number = 1): boolean {
    tokens = Math.min(this.capacity, tokens + (now - last) * this.rate);
    last = now;
    if (tokens < cost) return false;
    tokens -= cost;
    return true;
  }
}
