// Keeps the deque and its head at module level, as one might in a class turned into a function:
// the second call starts with the first call's indices still in it.
export const expectation = { verdict: 'wrong-answer', trap: 'out-of-window-state' };

const deque: number[] = [];
let head = 0;

export function maxSlidingWindow(nums: number[], k: number): number[] {
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
