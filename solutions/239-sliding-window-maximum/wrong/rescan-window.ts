// Scans the whole window again for every position: O(n·k). Right, and fine while k is small, but
// with a window of tens of thousands of values it makes billions of comparisons.
export const expectation = { verdict: 'accepted', trap: 'scale' };

export function maxSlidingWindow(nums: number[], k: number): number[] {
  const answer: number[] = [];
  for (let start = 0; start + k <= nums.length; start++) {
    let max = nums[start] as number;
    for (let i = start + 1; i < start + k; i++)
      if ((nums[i] as number) > max) max = nums[i] as number;
    answer.push(max);
  }
  return answer;
}
