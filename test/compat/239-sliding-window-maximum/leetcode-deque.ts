// expect: accepted
// LeetCode's global Deque (datastructures-js), holding indices: popBack while the back is smaller,
// popFront once the front has left the window.

export function maxSlidingWindow(nums: number[], k: number): number[] {
  const deque = new Deque<number>();
  const result: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    while (!deque.isEmpty() && nums[deque.back()!]! < nums[i]!) deque.popBack();
    deque.pushBack(i);
    if (deque.front()! <= i - k) deque.popFront();
    if (i >= k - 1) result.push(nums[deque.front()!]!);
  }
  return result;
}
