// expect: wrong-answer int-overflow-median
// Sorted array and splice, right in all but the mean, taken as (a + b) >> 1 the way C halves an
// int. LeetCode's C++ and Java answers cast to a 64-bit long first; in JavaScript the shift makes
// the sum a 32-bit integer, which wraps, and rounds -1.5 down to -2.
export function medianSlidingWindow(nums: number[], k: number): number[] {
  const sorted: number[] = [];
  const out: number[] = [];
  const place = (x: number): number => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  for (let i = 0; i < nums.length; i++) {
    sorted.splice(place(nums[i]!), 0, nums[i]!);
    if (i >= k) sorted.splice(place(nums[i - k]!), 1);
    if (i >= k - 1) {
      out.push(k % 2 === 1 ? sorted[(k - 1) >> 1]! : (sorted[k / 2 - 1]! + sorted[k / 2]!) >> 1);
    }
  }
  return out;
}
