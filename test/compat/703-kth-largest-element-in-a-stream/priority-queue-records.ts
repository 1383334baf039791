// expect: accepted
// LeetCode's global MinPriorityQueue (v6) holding records, ordered by a callback: the slowest
// design LeetCode accepts here (about 3 to 4 times a hand-written heap), and it must pass the
// scale follow-up too.

interface Entry {
  value: number;
}

export class KthLargest {
  private readonly queue = new MinPriorityQueue<Entry>((entry) => entry.value);

  constructor(
    private readonly k: number,
    nums: number[],
  ) {
    for (const num of nums) this.add(num);
  }

  add(val: number): number {
    this.queue.enqueue({ value: val });
    if (this.queue.size() > this.k) this.queue.dequeue();
    return (this.queue.front() as Entry).value;
  }
}
