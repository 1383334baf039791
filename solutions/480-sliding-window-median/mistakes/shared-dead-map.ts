// Two heaps with lazy deletion, both min-heaps: the lower half stores its values negated, so that
// its top is its largest value. The values to erase are counted in one map for both heaps, keyed
// by what each heap stores. Then a -1 leaving the lower half (stored as 1) and a 1 in the upper
// half are one key: the upper half throws away a live 1, or the lower half keeps a dead -1.
export const expectation = { verdict: 'wrong-answer', trap: 'lazy-deletion' };

export function medianSlidingWindow(nums: number[], k: number): number[] {
  const dead = new Map<number, number>(); // shared by both heaps: the mistake
  const lower = new MinHeap(); // values negated
  const upper = new MinHeap();
  let lowerSize = 0;
  let upperSize = 0;
  const prune = (heap: MinHeap): void => {
    while (heap.size() > 0 && (dead.get(heap.peek()) ?? 0) > 0) {
      dead.set(heap.peek(), (dead.get(heap.peek()) as number) - 1);
      heap.pop();
    }
  };
  const balance = (): void => {
    if (lowerSize > upperSize + 1) {
      upper.push(-lower.pop());
      lowerSize--;
      upperSize++;
      prune(lower);
    } else if (lowerSize < upperSize) {
      lower.push(-upper.pop());
      upperSize--;
      lowerSize++;
      prune(upper);
    }
  };
  const medians: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    const value = nums[i] as number;
    if (lowerSize === 0 || value <= -lower.peek()) {
      lower.push(-value);
      lowerSize++;
    } else {
      upper.push(value);
      upperSize++;
    }
    balance();
    if (i >= k) {
      const out = nums[i - k] as number;
      const key = out <= -lower.peek() ? -out : out;
      dead.set(key, (dead.get(key) ?? 0) + 1);
      if (out <= -lower.peek()) {
        lowerSize--;
        prune(lower);
      } else {
        upperSize--;
        prune(upper);
      }
      balance();
    }
    if (i >= k - 1) {
      medians.push(k % 2 === 1 ? -lower.peek() : (-lower.peek() + upper.peek()) / 2);
    }
  }
  return medians;
}

class MinHeap {
  private readonly items: number[] = [];

  size(): number {
    return this.items.length;
  }

  peek(): number {
    return this.items[0] as number;
  }

  push(value: number): void {
    const items = this.items;
    let i = items.push(value) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((items[parent] as number) <= value) break;
      items[i] = items[parent] as number;
      i = parent;
    }
    items[i] = value;
  }

  pop(): number {
    const items = this.items;
    const top = items[0] as number;
    const last = items.pop() as number;
    if (items.length === 0) return top;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= items.length) break;
      if (child + 1 < items.length && (items[child + 1] as number) < (items[child] as number)) {
        child++;
      }
      if ((items[child] as number) >= last) break;
      items[i] = items[child] as number;
      i = child;
    }
    items[i] = last;
    return top;
  }
}
