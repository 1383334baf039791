// Keeps the window in an array sorted ascending: a binary search finds where the new value goes and
// where the outgoing one is, and splice puts one in and takes the other out. Right, and accepted at
// LeetCode's sizes, but each splice moves up to k values: O(n·k) in all, where two heaps pay
// O(n log k).
export const expectation = { verdict: 'accepted', trap: 'scale' };

export function medianSlidingWindow(nums: number[], k: number): number[] {
  const sorted: number[] = [];
  const medians: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    sorted.splice(firstAtLeast(sorted, nums[i] as number), 0, nums[i] as number);
    if (i >= k) sorted.splice(firstAtLeast(sorted, nums[i - k] as number), 1);
    if (i >= k - 1) {
      medians.push(((sorted[(k - 1) >> 1] as number) + (sorted[k >> 1] as number)) / 2);
    }
  }
  return medians;
}

/** The first index whose value is at least `value`. */
function firstAtLeast(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
