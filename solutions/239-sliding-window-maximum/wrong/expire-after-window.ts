// Expires the front only once its index is more than k behind (`< i - k`): for one step too long
// the window holds k + 1 values, and a maximum that has just left still answers.
export const expectation = { verdict: 'wrong-answer', trap: 'expire-late' };

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
    if ((deque[head] as number) < i - k) head++;
    if (i >= k - 1) answer.push(nums[deque[head] as number] as number);
  }
  return answer;
}
