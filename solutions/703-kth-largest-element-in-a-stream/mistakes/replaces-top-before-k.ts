// Assumes the heap always holds k numbers: a new number replaces the top when larger, and is
// otherwise dropped. With fewer than k at the start, the heap never grows to k (and an empty one
// never takes anything: `val > undefined` is false).
export const expectation = { verdict: 'wrong-answer', trap: 'fewer-than-k' };

export class KthLargest {
  private readonly heap: number[];

  constructor(
    private readonly k: number,
    nums: number[],
  ) {
    this.heap = [...nums].sort((a, b) => b - a).slice(0, k);
    this.heap.sort((a, b) => a - b);
  }

  add(val: number): number {
    if (val > (this.heap[0] as number)) {
      this.heap[0] = val;
      this.heap.sort((a, b) => a - b);
    }
    return this.heap[0] as number;
  }
}
