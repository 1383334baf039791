// Sorts a copy of every window with sort() and no comparator, which compares numbers as strings:
// "-2147483648" < "10" < "2" < "3". The middle of that order is not the median. (Sorting every
// window is also far too slow for large windows: see the scale follow-up.)
export const expectation = { verdict: 'wrong-answer', trap: 'lexicographic-sort' };

export function medianSlidingWindow(nums: number[], k: number): number[] {
  const medians: number[] = [];
  for (let start = 0; start + k <= nums.length; start++) {
    const sorted = nums.slice(start, start + k).sort();
    const high = sorted[k >> 1] as number;
    const low = sorted[(k - 1) >> 1] as number;
    medians.push((low + high) / 2);
  }
  return medians;
}
