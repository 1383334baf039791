// Correct, but `shift()` copies the array once it is large: fine for LeetCode, too slow at scale.
export const expectation = { verdict: 'accepted', trap: 'scale' };

export class MovingAverage {
  private readonly queue: number[] = [];
  private sum = 0;

  constructor(private readonly size: number) {}

  next(val: number): number {
    this.queue.push(val);
    this.sum += val;
    if (this.queue.length > this.size) this.sum -= this.queue.shift() as number;
    return this.sum / this.queue.length;
  }
}
