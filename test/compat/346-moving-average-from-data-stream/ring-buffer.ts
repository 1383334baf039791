// expect: accepted
// A fixed ring of `size` slots and a running sum: the newest value overwrites the one that leaves.

export class MovingAverage {
  private readonly ring: number[];
  private count = 0;
  private sum = 0;

  constructor(private readonly size: number) {
    this.ring = new Array<number>(size).fill(0);
  }

  next(val: number): number {
    const slot = this.count % this.size;
    this.sum += val - (this.ring[slot] as number);
    this.ring[slot] = val;
    this.count++;
    return this.sum / Math.min(this.count, this.size);
  }
}
