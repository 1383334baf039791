// Sorts a copy of every window, numerically, and reads its middle: right, and fast for small
// windows, but each window costs O(k log k), so n windows of k = 5·10^4 values cost billions of
// steps. LeetCode's own tests would time it out on its largest inputs too.
export const expectation = { verdict: 'accepted', trap: 'scale' };

export function medianSlidingWindow(nums: number[], k: number): number[] {
  const medians: number[] = [];
  for (let start = 0; start + k <= nums.length; start++) {
    const sorted = nums.slice(start, start + k).sort((a, b) => a - b);
    const high = sorted[k >> 1] as number;
    const low = sorted[(k - 1) >> 1] as number;
    medians.push((low + high) / 2);
  }
  return medians;
}
