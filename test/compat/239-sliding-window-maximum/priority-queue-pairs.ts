// expect: accepted
// LeetCode's global MaxPriorityQueue (v6) of [value, index] pairs, ordered by value: an entry whose
// index has left the window is dequeued when it reaches the front.

export function maxSlidingWindow(nums: number[], k: number): number[] {
  const queue = new MaxPriorityQueue<[number, number]>((entry) => entry[0]);
  const result: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    queue.enqueue([nums[i]!, i]);
    if (i < k - 1) continue;
    while (queue.front()![1] <= i - k) queue.dequeue();
    result.push(queue.front()![0]);
  }
  return result;
}
