// Keeps its sorted array of the k largest at module level, so every KthLargest shares one.
export const expectation = { verdict: 'wrong-answer', trap: 'instance-isolation' };

/** The k largest so far, ascending. */
const top: number[] = [];

export class KthLargest {
  constructor(
    private readonly k: number,
    nums: number[],
  ) {
    for (const num of nums) this.offer(num);
  }

  add(val: number): number {
    this.offer(val);
    return top[0] as number;
  }

  private offer(val: number): void {
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((top[mid] as number) < val) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, val);
    if (top.length > this.k) top.shift();
  }
}
