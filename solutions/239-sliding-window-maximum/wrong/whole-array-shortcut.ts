// Answers the one-window case by a shortcut, a running maximum that starts at 0: an array of only
// negative numbers gets 0, a value it does not hold.
export const expectation = { verdict: 'wrong-answer', trap: 'k-equals-n' };

export function maxSlidingWindow(nums: number[], k: number): number[] {
  if (k === nums.length) return [nums.reduce((max, value) => Math.max(max, value), 0)];
  const deque: number[] = [];
  let head = 0;
  const answer: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    while (
      deque.length > head &&
      (nums[deque[deque.length - 1] as number] as number) < (nums[i] as number)
    )
      deque.pop();
    deque.push(i);
    if ((deque[head] as number) <= i - k) head++;
    if (i >= k - 1) answer.push(nums[deque[head] as number] as number);
  }
  return answer;
}
