// expect: accepted
// An array of the k largest kept in ascending order: binary search, splice, shift. O(k) per add,
// which LeetCode's sizes allow.

export class KthLargest {
  private readonly top: number[];

  constructor(
    private readonly k: number,
    nums: number[],
  ) {
    this.top = [...nums].sort((a, b) => a - b).slice(-k);
  }

  add(val: number): number {
    let lo = 0;
    let hi = this.top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.top[mid]! < val) lo = mid + 1;
      else hi = mid;
    }
    this.top.splice(lo, 0, val);
    if (this.top.length > this.k) this.top.shift();
    return this.top[0]!;
  }
}
