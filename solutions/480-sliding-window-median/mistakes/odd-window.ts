// Two heaps with lazy deletion, with the median always taken as the mean of the two tops: right
// when k is even, but an odd window has one middle value, the lower half's top (the lower half
// holds the extra value). With k = 1 the upper half is empty and the mean is NaN.
export const expectation = { verdict: 'wrong-answer', trap: 'odd-window' };

export function medianSlidingWindow(nums: number[], k: number): number[] {
  const lower = new LazyHeap((a, b) => a > b); // the smaller half, largest on top
  const upper = new LazyHeap((a, b) => a < b); // the larger half, smallest on top
  const balance = (): void => {
    if (lower.size > upper.size + 1) upper.push(lower.pop());
    else if (lower.size < upper.size) lower.push(upper.pop());
  };
  const medians: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    const value = nums[i] as number;
    if (lower.size === 0 || value <= lower.top()) lower.push(value);
    else upper.push(value);
    balance();
    if (i >= k) {
      const out = nums[i - k] as number;
      if (out <= lower.top()) lower.erase(out);
      else upper.erase(out);
      balance();
    }
    if (i >= k - 1) {
      medians.push((lower.top() + upper.top()) / 2);
    }
  }
  return medians;
}

/** A binary heap ordered by `before`, whose erased values leave once they reach the top. */
class LazyHeap {
  private readonly items: number[] = [];
  private readonly erased = new Map<number, number>();
  size = 0;

  constructor(private readonly before: (a: number, b: number) => boolean) {}

  top(): number {
    return this.items[0] as number;
  }

  push(value: number): void {
    this.size++;
    const items = this.items;
    let i = items.push(value) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(value, items[parent] as number)) break;
      items[i] = items[parent] as number;
      i = parent;
    }
    items[i] = value;
  }

  pop(): number {
    const value = this.top();
    this.size--;
    this.removeTop();
    this.prune();
    return value;
  }

  erase(value: number): void {
    this.size--;
    this.erased.set(value, (this.erased.get(value) ?? 0) + 1);
    this.prune();
  }

  private prune(): void {
    while (this.items.length > 0) {
      const count = this.erased.get(this.top()) ?? 0;
      if (count === 0) return;
      this.erased.set(this.top(), count - 1);
      this.removeTop();
    }
  }

  private removeTop(): void {
    const items = this.items;
    const last = items.pop() as number;
    if (items.length === 0) return;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= items.length) break;
      const right = child + 1;
      if (right < items.length && this.before(items[right] as number, items[child] as number)) {
        child = right;
      }
      if (!this.before(items[child] as number, last)) break;
      items[i] = items[child] as number;
      i = child;
    }
    items[i] = last;
  }
}
