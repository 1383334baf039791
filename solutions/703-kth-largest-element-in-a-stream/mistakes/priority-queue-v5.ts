/* eslint-disable @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- untyped JavaScript, as it was pasted on LeetCode: the judge checks no types in it
// Written for datastructures-js priority-queue v5, which LeetCode ran until 2025: `front()` gave a
// record `{ element, priority }`, and `enqueue` took a priority. LeetCode (and this judge) now have
// v6, whose `front()` gives the number itself, so `.element` is undefined and every add returns it.
export const expectation = { verdict: 'wrong-answer', trap: 'priority-queue-v5-api' };

export class KthLargest {
  constructor(k, nums) {
    this.k = k;
    this.queue = new MinPriorityQueue();
    for (const num of nums) this.add(num);
  }

  add(val) {
    this.queue.enqueue(val, val);
    if (this.queue.size() > this.k) this.queue.dequeue();
    return this.queue.front().element;
  }
}
