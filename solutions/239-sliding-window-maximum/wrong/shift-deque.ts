// The right deque of indices (equal values kept, popped with `<`), its front removed with
// `shift()`. Right, but V8 copies an array of 16,384 or more elements on every `shift`: on a long
// run of equal values the deque holds the whole window, so each step costs O(k).
export const expectation = { verdict: 'accepted', trap: 'scale' };

export function maxSlidingWindow(nums: number[], k: number): number[] {
  const deque: number[] = [];
  const answer: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    while (
      deque.length > 0 &&
      (nums[deque[deque.length - 1] as number] as number) < (nums[i] as number)
    )
      deque.pop();
    deque.push(i);
    if ((deque[0] as number) <= i - k) deque.shift();
    if (i >= k - 1) answer.push(nums[deque[0] as number] as number);
  }
  return answer;
}
