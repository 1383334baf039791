// expect: accepted
// A max-heap of indices, ordered by value, with lazy deletion: an index that fell out of the
// window stays in the heap until it reaches the top, and is dropped then. O(n log n): the slowest
// design LeetCode accepts here, and the one the scale follow-up's limit is set against.

export function maxSlidingWindow(nums: number[], k: number): number[] {
  const heap: number[] = [];
  const above = (a: number, b: number): boolean =>
    (nums[a] as number) > (nums[b] as number) ||
    ((nums[a] as number) === (nums[b] as number) && a > b);
  const push = (index: number): void => {
    let i = heap.length;
    heap.push(index);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!above(index, heap[parent] as number)) break;
      heap[i] = heap[parent] as number;
      i = parent;
    }
    heap[i] = index;
  };
  const pop = (): void => {
    const last = heap.pop() as number;
    if (heap.length === 0) return;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && above(heap[child + 1] as number, heap[child] as number))
        child++;
      if (!above(heap[child] as number, last)) break;
      heap[i] = heap[child] as number;
      i = child;
    }
    heap[i] = last;
  };
  const answer: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    push(i);
    if (i < k - 1) continue;
    while ((heap[0] as number) <= i - k) pop();
    answer.push(nums[heap[0] as number] as number);
  }
  return answer;
}
