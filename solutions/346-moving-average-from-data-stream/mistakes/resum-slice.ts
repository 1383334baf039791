// Correct, but re-sums the last `size` values on every call: O(size) per call, too slow at scale.
export const expectation = { verdict: 'accepted', trap: 'scale' };

export class MovingAverage {
  private readonly values: number[] = [];

  constructor(private readonly size: number) {}

  next(val: number): number {
    this.values.push(val);
    const window = this.values.slice(-this.size);
    return window.reduce((a, b) => a + b, 0) / window.length;
  }
}
