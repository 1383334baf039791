// Takes each window's maximum with `Math.max(...window)`. Besides being O(n·k), spreading an
// array passes every item as an argument, and V8 refuses past about 1.2·10^5 of them: RangeError.
export const expectation = { verdict: 'accepted', trap: 'spread-limit' };

export function maxSlidingWindow(nums: number[], k: number): number[] {
  const answer: number[] = [];
  for (let start = 0; start + k <= nums.length; start++) {
    answer.push(Math.max(...nums.slice(start, start + k)));
  }
  return answer;
}
