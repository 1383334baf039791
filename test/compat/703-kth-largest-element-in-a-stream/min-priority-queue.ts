// expect: accepted
// LeetCode's global MinPriorityQueue (datastructures-js v6, no import), kept at k numbers: v6's
// front() gives the number itself.

export class KthLargest {
  private readonly queue = new MinPriorityQueue<number>();

  constructor(
    private readonly k: number,
    nums: number[],
  ) {
    for (const num of nums) this.add(num);
  }

  add(val: number): number {
    this.queue.enqueue(val);
    if (this.queue.size() > this.k) this.queue.dequeue();
    return this.queue.front() as number;
  }
}
