// Checks the front for expiry only after the new value popped something off the back, as if the
// front could only go stale when a larger value arrived. On falling values nothing is ever popped,
// so nothing ever expires.
export const expectation = { verdict: 'wrong-answer', trap: 'descending' };

export function maxSlidingWindow(nums: number[], k: number): number[] {
  const deque: number[] = [];
  let head = 0;
  const answer: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    let popped = false;
    while (
      deque.length > head &&
      (nums[deque[deque.length - 1] as number] as number) < (nums[i] as number)
    ) {
      deque.pop();
      popped = true;
    }
    deque.push(i);
    if (popped && (deque[head] as number) <= i - k) head++;
    if (i >= k - 1) answer.push(nums[deque[head] as number] as number);
  }
  return answer;
}
