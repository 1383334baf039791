// Keeps the window sorted, and takes the outgoing value out with filter(v => v !== out), which
// takes out every copy of it, not one: a window that holds a value twice loses both when one of
// them leaves, and is one value short (or more) from then on. Windows without repeated values
// never show it.
export const expectation = { verdict: 'wrong-answer', trap: 'duplicates' };

export function medianSlidingWindow(nums: number[], k: number): number[] {
  let sorted: number[] = [];
  const medians: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    if (i >= k) {
      const out = nums[i - k] as number;
      sorted = sorted.filter((v) => v !== out);
    }
    const value = nums[i] as number;
    let at = 0;
    while (at < sorted.length && (sorted[at] as number) < value) at++;
    sorted.splice(at, 0, value);
    if (i >= k - 1) {
      medians.push(((sorted[(k - 1) >> 1] as number) + (sorted[k >> 1] as number)) / 2);
    }
  }
  return medians;
}
