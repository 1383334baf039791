// Pops smaller values from the back but never removes anything from the front: a value larger than
// everything after it stays the answer for ever.
export const expectation = { verdict: 'wrong-answer', trap: 'never-expires' };

export function maxSlidingWindow(nums: number[], k: number): number[] {
  const deque: number[] = [];
  const answer: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    const value = nums[i] as number;
    while (deque.length > 0 && (deque[deque.length - 1] as number) < value) deque.pop();
    deque.push(value);
    if (i >= k - 1) answer.push(deque[0] as number);
  }
  return answer;
}
