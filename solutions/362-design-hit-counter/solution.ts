// Reference: a ring of `window` buckets, one per second of the window. Bucket
// `t % window` holds the second it currently counts (`times`) and how many hits
// arrived in that second (`counts`).
//
// Why it is right: two seconds less than `window` apart never share a bucket,
// so every second still inside the window (t - window, t] has a bucket of its
// own. A bucket whose stored second differs from the one being hit belongs to a
// second at least one window old: `hit` resets it before counting (a stale
// count must not be carried over), and `getHits` skips every bucket whose
// second is `window` or more seconds old (strict `<`: a hit exactly `window`
// seconds old has left). Nothing depends on how long the counter sat idle: old
// buckets are recognised by their second, not cleared by walking the gap second
// by second.
//
// Traps it avoids: a reused bucket keeping its old count (stale-slot), `<=` at
// the cutoff (window-boundary), a burst counted once (same-second-burst: counts
// add up), work proportional to an idle gap (long-idle), state shared between
// instances, a hard-coded 300 (custom-window), and memory that grows with
// traffic (bounded-memory).
//
// Cost: `hit` O(1); `getHits` O(window), a constant 300 by default. Memory
// O(window) whatever the traffic: a million hits in one second are one bucket
// holding 1,000,000. A queue of every hit (the idea of 933) answers the same
// questions but keeps one entry per hit.
export class HitCounter {
  private readonly times: Float64Array;
  private readonly counts: Float64Array;

  constructor(private readonly window: number = 300) {
    // -Infinity: a bucket never hit is older than any window.
    this.times = new Float64Array(window).fill(-Infinity);
    this.counts = new Float64Array(window);
  }

  hit(timestamp: number): void {
    const slot = timestamp % this.window;
    if (this.times[slot] !== timestamp) {
      this.times[slot] = timestamp;
      this.counts[slot] = 0;
    }
    this.counts[slot] = (this.counts[slot] as number) + 1;
  }

  getHits(timestamp: number): number {
    let total = 0;
    for (let slot = 0; slot < this.window; slot++) {
      if (timestamp - (this.times[slot] as number) < this.window) {
        total += this.counts[slot] as number;
      }
    }
    return total;
  }
}
