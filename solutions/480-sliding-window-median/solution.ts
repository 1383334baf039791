// Reference: two heaps split the window in halves, the lower half in a max-heap
// and the upper half in a min-heap, and values that leave the window are
// deleted lazily.
//
// Why it is right: the lower half holds ceil(k/2) of the window's values and
// the upper half the rest, and no value in the lower half is above any in the
// upper half. Then the median is the lower half's top when k is odd, and the
// mean of both tops when k is even. A heap cannot take out a value in the
// middle, so a value that leaves is only counted as "to delete" in the heap
// that holds it (each heap has its own count, per value: a window may hold the
// same value many times), and the heap's live size drops at once. A heap throws
// its dead values away when they reach its top, so both tops are always live.
// Sizes are balanced by the live counts, never by the heaps' array lengths,
// which still hold dead values.
//
// Numbers: values fill the 32-bit signed range, and the mean is worked out in
// floating point, (a + b) / 2: a sum of two such values is exact in a double,
// and halving it is exact. `(a + b) >> 1` would wrap past 2^31 and round -1.5
// down to -2.
//
// Cost: O(n log n) time (a heap holds at most the values pushed since its
// dead ones last reached the top, O(log k) per step when they go soon), O(n)
// memory at worst. Sorting each window costs O(n·k·log k), and an array kept
// sorted with `splice` O(n·k): fine for small windows, far too slow for large.
export function medianSlidingWindow(nums: number[], k: number): number[] {
  const window = new HalvedWindow();
  const medians: number[] = [];
  for (let i = 0; i < nums.length; i++) {
    window.insert(nums[i] as number);
    if (i >= k) window.erase(nums[i - k] as number);
    if (i >= k - 1) medians.push(window.median(k));
  }
  return medians;
}

/** The window: a lower and an upper half, their live sizes balanced. */
class HalvedWindow {
  /** The lower half: a max-heap (values negated into a min-heap). */
  private readonly lower = new LazyHeap(-1);
  /** The upper half: a min-heap. */
  private readonly upper = new LazyHeap(1);

  insert(value: number): void {
    if (this.lower.size === 0 || value <= this.lower.top()) this.lower.push(value);
    else this.upper.push(value);
    this.balance();
  }

  /** Takes out one copy of `value`, which must be in the window. */
  erase(value: number): void {
    // Every live value of the lower half is at most its top, and every one of
    // the upper half at least that: so the side is known from the top alone.
    if (value <= this.lower.top()) this.lower.erase(value);
    else this.upper.erase(value);
    this.balance();
  }

  median(k: number): number {
    if (k % 2 === 1) return this.lower.top();
    return (this.lower.top() + this.upper.top()) / 2;
  }

  /** The lower half holds as many live values as the upper one, or one more. */
  private balance(): void {
    if (this.lower.size > this.upper.size + 1) this.upper.push(this.lower.pop());
    else if (this.lower.size < this.upper.size) this.lower.push(this.upper.pop());
  }
}

/**
 * A binary min-heap of keys with lazy deletion. `sign` turns a value into its
 * key: -1 makes it a max-heap of values. Dead keys are counted in a map of its
 * own, so two heaps never take each other's deletions.
 */
class LazyHeap {
  private readonly keys: number[] = [];
  /** Keys deleted but still in `keys`, with how many copies of each. */
  private readonly dead = new Map<number, number>();
  /** Live values: the heap's length minus its dead keys. */
  size = 0;

  constructor(private readonly sign: number) {}

  /** The top live value; the heap must hold one. */
  top(): number {
    return this.sign * (this.keys[0] as number);
  }

  push(value: number): void {
    this.size++;
    this.siftUp(this.sign * value);
  }

  pop(): number {
    const value = this.top();
    this.size--;
    this.removeTop();
    this.dropDeadTop();
    return value;
  }

  erase(value: number): void {
    const key = this.sign * value;
    this.size--;
    this.dead.set(key, (this.dead.get(key) ?? 0) + 1);
    this.dropDeadTop();
  }

  /** Throws away dead keys while one is on top, so that top() is live. */
  private dropDeadTop(): void {
    for (;;) {
      const key = this.keys[0];
      if (key === undefined) return;
      const copies = this.dead.get(key);
      if (copies === undefined) return;
      if (copies === 1) this.dead.delete(key);
      else this.dead.set(key, copies - 1);
      this.removeTop();
    }
  }

  private siftUp(key: number): void {
    const keys = this.keys;
    let i = keys.length;
    keys.push(key);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((keys[parent] as number) <= key) break;
      keys[i] = keys[parent] as number;
      i = parent;
    }
    keys[i] = key;
  }

  private removeTop(): void {
    const keys = this.keys;
    const last = keys.pop() as number;
    const size = keys.length;
    if (size === 0) return;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && (keys[child + 1] as number) < (keys[child] as number)) child++;
      if ((keys[child] as number) >= last) break;
      keys[i] = keys[child] as number;
      i = child;
    }
    keys[i] = last;
  }
}
