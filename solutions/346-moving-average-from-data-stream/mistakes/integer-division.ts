// Rounds the average down, as Java's integer division would: `Math.floor(sum / count)`.
export const expectation = { verdict: 'wrong-answer', trap: 'float-division' };

export class MovingAverage {
  private readonly queue: number[] = [];
  private sum = 0;

  constructor(private readonly size: number) {}

  next(val: number): number {
    this.queue.push(val);
    this.sum += val;
    if (this.queue.length > this.size) this.sum -= this.queue.shift() as number;
    return Math.floor(this.sum / this.queue.length);
  }
}
