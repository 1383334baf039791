// Keeps the k largest in an ascending array: a binary search finds where a new number goes, `splice`
// puts it there, and `shift` drops the smallest. Right, and fast enough at LeetCode's sizes, but
// each add moves up to k numbers: far too slow when k is in the hundreds of thousands.
export const expectation = { verdict: 'accepted', trap: 'scale' };

export class KthLargest {
  private readonly sorted: number[] = [];

  constructor(
    private readonly k: number,
    nums: number[],
  ) {
    this.sorted = [...nums].sort((a, b) => a - b).slice(-k);
  }

  add(val: number): number {
    const sorted = this.sorted;
    if (sorted.length < this.k || val > (sorted[0] as number)) {
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((sorted[mid] as number) < val) lo = mid + 1;
        else hi = mid;
      }
      sorted.splice(lo, 0, val);
      if (sorted.length > this.k) sorted.shift();
    }
    return sorted[0] as number;
  }
}
