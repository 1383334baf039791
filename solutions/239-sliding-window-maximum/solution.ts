// Reference: a monotonic deque of indices, in a plain array with a head index.
//
// Why it is right: the deque holds, in order, the indices of the window whose
// values are larger than every value after them (ties kept: an equal value
// behind is not larger, so the older one stays). Its front is then the
// window's largest value. A new value first removes, from the back, every
// index whose value is strictly smaller: those can never be a maximum again
// while it is in the window. Then the front leaves once its index is k or
// more behind the new one, i.e. it fell out of the window [i - k + 1, i].
//
// Cost: O(n) in all (every index enters and leaves the deque at most once),
// O(k) live entries. The front is "removed" by moving a head index, never
// with `shift()`: V8 copies an array of 16,384 or more elements on every
// `shift`, and on equal values the deque holds the whole window.
export function maxSlidingWindow(nums: number[], k: number): number[] {
  // Indices; only [head, tail) is the deque.
  const deque = new Int32Array(nums.length);
  let head = 0;
  let tail = 0;
  const answer: number[] = new Array<number>(nums.length - k + 1);
  for (let i = 0; i < nums.length; i++) {
    const value = nums[i] as number;
    while (tail > head && (nums[deque[tail - 1] as number] as number) < value) tail--;
    deque[tail++] = i;
    if ((deque[head] as number) <= i - k) head++;
    if (i >= k - 1) answer[i - k + 1] = nums[deque[head] as number] as number;
  }
  return answer;
}
