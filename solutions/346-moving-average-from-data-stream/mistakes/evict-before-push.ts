// Checks for a full window before pushing, with `>`: the window keeps `size + 1` values.
export const expectation = { verdict: 'wrong-answer', trap: 'eviction-boundary' };

export class MovingAverage {
  private readonly queue: number[] = [];
  private sum = 0;

  constructor(private readonly size: number) {}

  next(val: number): number {
    if (this.queue.length > this.size) this.sum -= this.queue.shift() as number;
    this.queue.push(val);
    this.sum += val;
    return this.sum / this.queue.length;
  }
}
