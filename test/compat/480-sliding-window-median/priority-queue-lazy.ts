// expect: accepted
// Two heaps on LeetCode's global MaxPriorityQueue and MinPriorityQueue (datastructures-js 6.x, no
// import), with a Map of values to delete per heap and the live sizes kept apart, as LeetCode's
// TypeScript answers write it.
export function medianSlidingWindow(nums: number[], k: number): number[] {
  const small = new MaxPriorityQueue<number>();
  const large = new MinPriorityQueue<number>();
  const smallDead = new Map<number, number>();
  const largeDead = new Map<number, number>();
  let smallSize = 0;
  let largeSize = 0;

  const prune = (
    pq: MinPriorityQueue<number> | MaxPriorityQueue<number>,
    dead: Map<number, number>,
  ) => {
    while (!pq.isEmpty() && (dead.get(pq.front()!) ?? 0) > 0) {
      dead.set(pq.front()!, dead.get(pq.front()!)! - 1);
      pq.dequeue();
    }
  };
  const rebalance = () => {
    if (smallSize > largeSize + 1) {
      large.enqueue(small.dequeue()!);
      smallSize--;
      largeSize++;
      prune(small, smallDead);
    } else if (smallSize < largeSize) {
      small.enqueue(large.dequeue()!);
      largeSize--;
      smallSize++;
      prune(large, largeDead);
    }
  };

  const ans: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    const num = nums[i]!;
    if (small.isEmpty() || num <= small.front()!) {
      small.enqueue(num);
      smallSize++;
    } else {
      large.enqueue(num);
      largeSize++;
    }
    rebalance();
    if (i >= k) {
      const out = nums[i - k]!;
      if (out <= small.front()!) {
        smallDead.set(out, (smallDead.get(out) ?? 0) + 1);
        smallSize--;
        prune(small, smallDead);
      } else {
        largeDead.set(out, (largeDead.get(out) ?? 0) + 1);
        largeSize--;
        prune(large, largeDead);
      }
      rebalance();
    }
    if (i >= k - 1) ans.push(k % 2 ? small.front()! : (small.front()! + large.front()!) / 2);
  }
  return ans;
}
