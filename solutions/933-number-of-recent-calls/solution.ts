// Reference: a queue of ping times read through a head index.
//
// Why it is right: times arrive in non-decreasing order, so the expired ones
// are always a prefix of the queue. Each ping appends once and each time leaves
// the window once, when `head` moves past it. The test is `time < t - window`
// (strict): a ping exactly `window` ms old is still inside the inclusive range
// [t - window, t].
//
// Cost: O(1) amortised per ping (every time is appended once and skipped once);
// memory O(pings in the window), because the dead prefix is cut off once it is
// at least half the array. `Array.shift()` would be simpler but copies the
// whole array once it holds more than about 11,000 items.
export class RecentCounter {
  private times: number[] = [];
  private head = 0;

  constructor(private readonly window: number = 3000) {}

  ping(t: number): number {
    this.times.push(t);
    const cutoff = t - this.window;
    while ((this.times[this.head] as number) < cutoff) this.head++;
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
    return this.times.length - this.head;
  }
}
