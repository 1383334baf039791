// Expires the front once its index reaches the window's first place (`<= i - k + 1`): the oldest
// value of the window is dropped while it is still inside it.
export const expectation = { verdict: 'wrong-answer', trap: 'expire-early' };

export function maxSlidingWindow(nums: number[], k: number): number[] {
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
    if (deque.length - head > 1 && (deque[head] as number) <= i - k + 1) head++;
    if (i >= k - 1) answer.push(nums[deque[head] as number] as number);
  }
  return answer;
}
