// Puts every starting number in the heap and trims only in add, one number per call: with more than
// k at the start, the heap stays too big and its top is not the k-th largest.
export const expectation = { verdict: 'wrong-answer', trap: 'trim-in-constructor' };

export class KthLargest {
  private readonly heap: number[] = [];

  constructor(
    private readonly k: number,
    nums: number[],
  ) {
    for (const num of nums) this.push(num);
  }

  add(val: number): number {
    this.push(val);
    if (this.heap.length > this.k) this.pop();
    return this.heap[0] as number;
  }

  private push(val: number): void {
    const heap = this.heap;
    heap.push(val);
    let i = heap.length - 1;
    while (i > 0 && (heap[(i - 1) >> 1] as number) > (heap[i] as number)) {
      const parent = (i - 1) >> 1;
      [heap[i], heap[parent]] = [heap[parent] as number, heap[i] as number];
      i = parent;
    }
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop() as number;
    if (heap.length === 0) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && (heap[child + 1] as number) < (heap[child] as number)) child++;
      if ((heap[child] as number) >= (heap[i] as number)) break;
      [heap[i], heap[child]] = [heap[child] as number, heap[i] as number];
      i = child;
    }
  }
}
