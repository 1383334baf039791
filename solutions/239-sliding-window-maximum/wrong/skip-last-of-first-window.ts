// Fills the first window with its first k - 1 values, then starts sliding at index k: the value at
// index k - 1 is never seen. With k = 1 the first window is empty, and its answer undefined.
export const expectation = { verdict: 'wrong-answer', trap: 'k-equals-one' };

export function maxSlidingWindow(nums: number[], k: number): number[] {
  const deque: number[] = [];
  let head = 0;
  const push = (i: number): void => {
    while (
      deque.length > head &&
      (nums[deque[deque.length - 1] as number] as number) < (nums[i] as number)
    )
      deque.pop();
    deque.push(i);
  };
  for (let i = 0; i < k - 1; i++) push(i);
  const answer = [nums[deque[head] as number] as number];
  for (let i = k; i < nums.length; i++) {
    push(i);
    if ((deque[head] as number) <= i - k) head++;
    answer.push(nums[deque[head] as number] as number);
  }
  return answer;
}
