// A deque of values (not indices) that pops equal values from the back (`<=`), then removes the
// front when the value leaving the window equals it: with a repeated maximum, the one it removes
// is the copy still inside the window.
export const expectation = { verdict: 'wrong-answer', trap: 'equal-maxima' };

export function maxSlidingWindow(nums: number[], k: number): number[] {
  const deque: number[] = [];
  const answer: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    const value = nums[i] as number;
    while (deque.length > 0 && (deque[deque.length - 1] as number) <= value) deque.pop();
    deque.push(value);
    if (i >= k && nums[i - k] === deque[0]) deque.shift();
    if (i >= k - 1) answer.push(deque[0] as number);
  }
  return answer;
}
