// Divides by `size` from the first call, so a window that is not yet full is diluted.
export const expectation = { verdict: 'wrong-answer', trap: 'partial-window' };

export class MovingAverage {
  private readonly queue: number[] = [];
  private sum = 0;

  constructor(private readonly size: number) {}

  next(val: number): number {
    this.queue.push(val);
    this.sum += val;
    if (this.queue.length > this.size) this.sum -= this.queue.shift() as number;
    return this.sum / this.size;
  }
}
