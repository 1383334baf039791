// Treats every hit older than the latest timestamp as invalid and drops it, even one well inside
// the window.
export const expectation = { verdict: 'wrong-answer', trap: 'late-hit-counted' };

export class HitCounter {
  private readonly times = new Array<number>(300).fill(0);
  private readonly counts = new Array<number>(300).fill(0);
  private latest = 0;

  hit(timestamp: number): void {
    if (timestamp < this.latest) return;
    this.latest = timestamp;
    const slot = timestamp % 300;
    if (this.times[slot] !== timestamp) {
      this.times[slot] = timestamp;
      this.counts[slot] = 0;
    }
    this.counts[slot] = (this.counts[slot] as number) + 1;
  }

  getHits(timestamp: number): number {
    let total = 0;
    for (let slot = 0; slot < 300; slot++) {
      if (timestamp - (this.times[slot] as number) < 300) total += this.counts[slot] as number;
    }
    return total;
  }
}
