// Reference: a ring buffer of the last `size` values plus their running sum.
//
// The idea: the window changes by one value at each call, so its sum changes by
// one addition and, once the window is full, one subtraction (the value that
// falls out). Nothing needs re-summing.
//
// Why it is right: `cursor` is where the next value goes. While the window is
// filling it equals `count`; once `count === size` the slot it points at holds
// the oldest value, which is exactly the one to evict (the `size + 1`-th value
// evicts the first, never earlier or later). The average divides by `count`,
// the number of values actually in the window, so a window that is not yet full
// is not diluted by `size`. `/` on numbers is floating-point division, so
// 11 / 2 is 5.5, not 5.
//
// Exactness: values are integers with |val| <= 10^5 and size <= 2·10^5 at most,
// so |sum| <= 2·10^10, far below 2^53: every sum is an exact integer (negative
// ones included) and never drifts, however many calls are made.
//
// Cost: O(1) per call and O(size) memory, for the ring. `Array.shift()` would
// copy the whole queue once it holds more than about 11,000 values, and summing
// a slice each call costs O(size).
export class MovingAverage {
  private readonly slots: Float64Array;
  private cursor = 0;
  private count = 0;
  private sum = 0;

  constructor(private readonly size: number) {
    this.slots = new Float64Array(size);
  }

  next(val: number): number {
    if (this.count === this.size) this.sum -= this.slots[this.cursor] as number;
    else this.count++;
    this.slots[this.cursor] = val;
    this.sum += val;
    this.cursor = this.cursor + 1 === this.size ? 0 : this.cursor + 1;
    return this.sum / this.count;
  }
}
