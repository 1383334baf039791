// Keeps the queue and the sum at module level, so every MovingAverage shares one window.
export const expectation = { verdict: 'wrong-answer', trap: 'instance-isolation' };

const queue: number[] = [];
let sum = 0;

export class MovingAverage {
  constructor(private readonly size: number) {}

  next(val: number): number {
    queue.push(val);
    sum += val;
    if (queue.length > this.size) sum -= queue.shift() as number;
    return sum / queue.length;
  }
}
