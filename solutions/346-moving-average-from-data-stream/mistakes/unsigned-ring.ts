// Keeps the ring in a Uint32Array: a negative value comes back as a huge positive one when evicted.
export const expectation = { verdict: 'wrong-answer', trap: 'negative-values' };

export class MovingAverage {
  private readonly ring: Uint32Array;
  private index = 0;
  private count = 0;
  private sum = 0;

  constructor(private readonly size: number) {
    this.ring = new Uint32Array(size);
  }

  next(val: number): number {
    if (this.count === this.size) this.sum -= this.ring[this.index] as number;
    else this.count++;
    this.ring[this.index] = val;
    this.sum += val;
    this.index = (this.index + 1) % this.size;
    return this.sum / this.count;
  }
}
