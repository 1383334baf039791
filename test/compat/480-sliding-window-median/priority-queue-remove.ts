// expect: accepted
// Two of LeetCode's global priority queues whose outgoing value is taken out with remove(cb)
// (datastructures-js 6.3), removing one copy. remove costs O(k log k) per call, but LeetCode's
// sizes let it through, as the core cases do: only the scale follow-up, not run here, catches it.
export function medianSlidingWindow(nums: number[], k: number): number[] {
  const lo = new MaxPriorityQueue<number>();
  const hi = new MinPriorityQueue<number>();
  const result: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    const num = nums[i]!;
    if (lo.isEmpty() || num <= lo.front()!) lo.enqueue(num);
    else hi.enqueue(num);
    if (i >= k) {
      const out = nums[i - k]!;
      let once = false;
      const firstCopy = (v: number) => {
        if (once || v !== out) return false;
        once = true;
        return true;
      };
      if (out <= lo.front()!) lo.remove(firstCopy);
      else hi.remove(firstCopy);
    }
    while (lo.size() > hi.size() + 1) hi.enqueue(lo.dequeue()!);
    while (lo.size() < hi.size()) lo.enqueue(hi.dequeue()!);
    if (i >= k - 1) result.push(k % 2 === 1 ? lo.front()! : (lo.front()! + hi.front()!) / 2);
  }
  return result;
}
