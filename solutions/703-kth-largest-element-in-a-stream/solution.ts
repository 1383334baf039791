// Reference: a min-heap that keeps only the k largest numbers seen so far.
//
// Why it is right: the k-th largest of a multiset is the smallest of its k
// largest members. The heap holds exactly those (duplicates included: each
// number is its own entry), so its top is the answer. A new number smaller than
// the top can never be among the k largest again, and a larger one pushes the
// old top out. While the heap holds fewer than k numbers (the constructor may
// get k - 1 of them, or none), every number goes in: there is nothing to push
// out yet.
//
// Cost: O(log k) per add and O(n log k) for the constructor; memory O(k),
// whatever the stream's length. Sorting on every add costs O(n log n) per add,
// and an array kept sorted with `splice` O(k) per add: fine for small k, far
// too slow when k is in the hundreds of thousands.
export class KthLargest {
  /** A binary min-heap: heap[i] <= heap[2i + 1] and heap[i] <= heap[2i + 2]. */
  private readonly heap: number[] = [];

  constructor(
    private readonly k: number,
    nums: number[],
  ) {
    for (const num of nums) this.offer(num);
  }

  add(val: number): number {
    this.offer(val);
    return this.heap[0] as number;
  }

  /**
   * Keeps `val` if it is among the k largest so far, dropping the number it
   * replaces.
   */
  private offer(val: number): void {
    if (this.heap.length < this.k) {
      this.heap.push(val);
      this.siftUp(this.heap.length - 1);
    } else if (val > (this.heap[0] as number)) {
      this.heap[0] = val;
      this.siftDown(0);
    }
  }

  private siftUp(index: number): void {
    const heap = this.heap;
    const val = heap[index] as number;
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((heap[parent] as number) <= val) break;
      heap[i] = heap[parent] as number;
      i = parent;
    }
    heap[i] = val;
  }

  private siftDown(index: number): void {
    const heap = this.heap;
    const size = heap.length;
    const val = heap[index] as number;
    let i = index;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && (heap[child + 1] as number) < (heap[child] as number)) child++;
      if ((heap[child] as number) >= val) break;
      heap[i] = heap[child] as number;
      i = child;
    }
    heap[i] = val;
  }
}
