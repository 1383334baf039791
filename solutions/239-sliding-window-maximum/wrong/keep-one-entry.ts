// Pops smaller values off the back but never empties the deque (`> 1` where `> 0` was meant): a
// new maximum stays behind the old front, and on rising values the answer lags behind.
export const expectation = { verdict: 'wrong-answer', trap: 'ascending' };

export function maxSlidingWindow(nums: number[], k: number): number[] {
  const deque: number[] = [];
  let head = 0;
  const answer: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    while (
      deque.length - head > 1 &&
      (nums[deque[deque.length - 1] as number] as number) < (nums[i] as number)
    )
      deque.pop();
    deque.push(i);
    if ((deque[head] as number) <= i - k) head++;
    if (i >= k - 1) answer.push(nums[deque[head] as number] as number);
  }
  return answer;
}
