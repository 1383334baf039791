// Two heaps whose remove(value) searches the heap's array for the value, then puts the last entry
// in its place and sifts it: no lazy deletion, and right, but the search is O(k) per step, so the
// whole run is O(n·k). (LeetCode's PriorityQueue.remove, in Java or in datastructures-js, costs as
// much or more; LeetCode added tests that time it out.)
export const expectation = { verdict: 'accepted', trap: 'scale' };

export function medianSlidingWindow(nums: number[], k: number): number[] {
  const lower = new BinaryHeap((a, b) => a > b); // the smaller half, largest on top
  const upper = new BinaryHeap((a, b) => a < b); // the larger half, smallest on top
  const medians: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    const value = nums[i] as number;
    if (lower.size() === 0 || value <= lower.top()) lower.push(value);
    else upper.push(value);
    if (i >= k) {
      const out = nums[i - k] as number;
      if (!lower.remove(out)) upper.remove(out);
    }
    // Balance: the lower half holds as many values as the upper one, or one more.
    while (lower.size() > upper.size() + 1) upper.push(lower.pop());
    while (lower.size() < upper.size()) lower.push(upper.pop());
    if (i >= k - 1) {
      medians.push(k % 2 === 1 ? lower.top() : (lower.top() + upper.top()) / 2);
    }
  }
  return medians;
}

class BinaryHeap {
  private readonly items: number[] = [];

  constructor(private readonly before: (a: number, b: number) => boolean) {}

  size(): number {
    return this.items.length;
  }

  top(): number {
    return this.items[0] as number;
  }

  push(value: number): void {
    this.items.push(value);
    this.up(this.items.length - 1);
  }

  pop(): number {
    const top = this.top();
    this.removeAt(0);
    return top;
  }

  /** Removes one copy of `value`; false when the heap holds none. */
  remove(value: number): boolean {
    for (let i = 0; i < this.items.length; i++) {
      if (this.items[i] === value) {
        this.removeAt(i);
        return true;
      }
    }
    return false;
  }

  private removeAt(at: number): void {
    const last = this.items.pop() as number;
    if (at === this.items.length) return;
    this.items[at] = last;
    this.up(at);
    this.down(at);
  }

  private up(at: number): void {
    const items = this.items;
    let i = at;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i] as number, items[parent] as number)) break;
      [items[i], items[parent]] = [items[parent] as number, items[i] as number];
      i = parent;
    }
  }

  private down(at: number): void {
    const items = this.items;
    let i = at;
    for (;;) {
      let best = i;
      for (const child of [2 * i + 1, 2 * i + 2]) {
        if (child < items.length && this.before(items[child] as number, items[best] as number)) {
          best = child;
        }
      }
      if (best === i) return;
      [items[i], items[best]] = [items[best] as number, items[i] as number];
      i = best;
    }
  }
}
