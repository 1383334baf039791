// Keeps each value once (a Set guards the sorted array), so it answers the k-th largest distinct
// value: with 5, 5 and 4 it calls 4 the second largest.
export const expectation = { verdict: 'wrong-answer', trap: 'duplicates-count' };

export class KthLargest {
  private readonly seen = new Set<number>();
  /** The distinct values seen, largest first. */
  private readonly sorted: number[] = [];

  constructor(
    private readonly k: number,
    nums: number[],
  ) {
    for (const num of nums) this.insert(num);
  }

  add(val: number): number {
    this.insert(val);
    return this.sorted[this.k - 1] as number;
  }

  private insert(val: number): void {
    if (this.seen.has(val)) return;
    this.seen.add(val);
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.sorted[mid] as number) > val) lo = mid + 1;
      else hi = mid;
    }
    this.sorted.splice(lo, 0, val);
  }
}
