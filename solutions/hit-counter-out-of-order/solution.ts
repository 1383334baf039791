// Reference: 362's ring of 300 buckets, one per second of the window (bucket
// `t % 300` holds the second it counts and that second's hits), plus `latest`,
// the largest timestamp seen so far.
//
// Why it is right: every query is about now (t >= latest), so the seconds that
// can still be counted are those after latest - 300, fewer than 300 of them,
// each with a bucket of its own. A hit at or before latest - 300 can never be
// counted again: it is dropped before it touches a bucket. That matters,
// because its bucket may hold a newer second that is still counted (hit(305)
// then hit(5): both map to bucket 5), and resetting it for the late hit would
// wipe the newer hits. Once such hits are dropped, a bucket whose stored second
// differs from a hit's second holds an older second, at least 300 before the
// hit: the hit resets it, as in 362. getHits adds the buckets less than 300
// seconds old (strict: a hit exactly 300 seconds old has left), so a late hit
// ages out with its second like any other, whenever it arrived.
//
// Traps it avoids: a late hit wiping a newer second's bucket
// (late-hit-clobbers) or counted into it (too-late-dropped), late hits refused
// (late-hit-counted) or kept in arrival order and so never expired
// (late-hit-expires), a burst counted once (same-second-many), `<=` at the
// cutoff (window-boundary), work that grows with an idle gap (long-idle), and
// memory that grows with the traffic (bounded-memory).
//
// Only hit() raises `latest`, though the statement's latest counts getHits too:
// a hit that only a later getHits makes too late can never be counted (every
// query is at or after that getHits), and the second it may reset in its bucket
// is 300 or more seconds older still, so keeping it changes no answer.
//
// Cost: hit O(1), getHits O(300). Memory O(300) whatever the traffic or the
// lateness.
const WINDOW = 300;

export class HitCounter {
  // -Infinity: a bucket never hit is older than any window.
  private readonly times = new Float64Array(WINDOW).fill(-Infinity);
  private readonly counts = new Float64Array(WINDOW);
  private latest = -Infinity; // nothing seen yet

  hit(timestamp: number): void {
    // Too late to ever count: dropping it changes nothing.
    if (timestamp <= this.latest - WINDOW) return;
    this.latest = Math.max(this.latest, timestamp);
    const slot = timestamp % WINDOW;
    if (this.times[slot] !== timestamp) {
      this.times[slot] = timestamp;
      this.counts[slot] = 0;
    }
    this.counts[slot] = (this.counts[slot] as number) + 1;
  }

  getHits(timestamp: number): number {
    let total = 0;
    for (let slot = 0; slot < WINDOW; slot++) {
      if (timestamp - (this.times[slot] as number) < WINDOW) total += this.counts[slot] as number;
    }
    return total;
  }
}
