// Reference: a map from timestamp to its price as last recorded, the largest
// timestamp seen, and two binary heaps of (price, timestamp) records, one with
// the highest price on top and one with the lowest, both with lazy validation.
//
// Why it is right: every update pushes its record onto both heaps and never
// takes anything out, so a heap holds the live record of every timestamp plus
// records a correction has overruled. A record is live exactly when the map
// still gives its timestamp that price; maximum() and minimum() throw away
// overruled records from the top until a live one is there, and answer with it.
// A live record of a timestamp is never thrown away, so the top is the extreme
// of live prices. Two timestamps at one price are two records: correcting one
// away leaves the other's record live, because validity is judged per
// timestamp, not per price. current() is the price at the largest timestamp
// seen, not at the last call: records arrive out of order.
//
// Traps it avoids: a running maximum or minimum that a correction should lower
// or raise (correction-lowers-max, correction-of-min), current() as the last
// call's price (current-is-latest-timestamp) or missing a correction of the
// latest timestamp (correction-of-current), removing a price rather than one
// timestamp's record (duplicate-prices), and rescanning every price on a query
// or a correction (scale).
//
// Cost: update O(log n), current O(1), maximum and minimum O(log n) amortised:
// each record is pushed once and thrown away at most once. Memory O(updates):
// overruled records stay in a heap until they reach its top.
export class StockPrice {
  private readonly prices = new Map<number, number>();
  private latest = -Infinity; // no timestamp yet
  // The highest price on top: keys are prices negated.
  private readonly highest = new RecordHeap();
  private readonly lowest = new RecordHeap();

  update(timestamp: number, price: number): void {
    this.prices.set(timestamp, price);
    this.latest = Math.max(this.latest, timestamp);
    this.highest.push(-price, timestamp);
    this.lowest.push(price, timestamp);
  }

  current(): number {
    return this.prices.get(this.latest) as number;
  }

  maximum(): number {
    return -this.liveTop(this.highest, -1);
  }

  minimum(): number {
    return this.liveTop(this.lowest, 1);
  }

  /**
   * The key on top of `heap` once overruled records are gone; `sign` turns a
   * key into a price.
   */
  private liveTop(heap: RecordHeap, sign: number): number {
    while (this.prices.get(heap.topTime()) !== sign * heap.topKey()) heap.pop();
    return heap.topKey();
  }
}

/**
 * A binary min-heap of (key, time) records, in two parallel arrays: no object
 * per record.
 */
class RecordHeap {
  private readonly keys: number[] = [];
  private readonly times: number[] = [];

  topKey(): number {
    return this.keys[0] as number;
  }

  topTime(): number {
    return this.times[0] as number;
  }

  push(key: number, time: number): void {
    let at = this.keys.length;
    // Move parents down until the new record's place is found, then write it
    // there once.
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if ((this.keys[parent] as number) <= key) break;
      this.move(parent, at);
      at = parent;
    }
    this.keys[at] = key;
    this.times[at] = time;
  }

  /**
   * Removes the top record. Only ever called on a stale top, and a heap always
   * holds the live record of every timestamp, so it is never the last record:
   * one is left to fill the hole.
   */
  pop(): void {
    const key = this.keys.pop() as number;
    const time = this.times.pop() as number;
    const size = this.keys.length;
    // The last record fills the hole at the top: move smaller children up
    // until it fits.
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      // A right child past the end reads undefined; `undefined < x` is false.
      if ((this.keys[child + 1] as number) < (this.keys[child] as number)) child++;
      if ((this.keys[child] as number) >= key) break;
      this.move(child, at);
      at = child;
    }
    this.keys[at] = key;
    this.times[at] = time;
  }

  private move(from: number, to: number): void {
    this.keys[to] = this.keys[from] as number;
    this.times[to] = this.times[from] as number;
  }
}
