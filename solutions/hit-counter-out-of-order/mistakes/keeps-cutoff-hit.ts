// Counts a hit exactly 300 seconds old: `<=` in the age test, as if the window were [t - 300, t].
export const expectation = { verdict: 'wrong-answer', trap: 'window-boundary' };

export class HitCounter {
  private readonly times = new Array<number>(300).fill(-Infinity);
  private readonly counts = new Array<number>(300).fill(0);
  private latest = 0;

  hit(timestamp: number): void {
    if (timestamp <= this.latest - 300) return;
    this.latest = Math.max(this.latest, timestamp);
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
      if (timestamp - (this.times[slot] as number) <= 300) total += this.counts[slot] as number;
    }
    return total;
  }
}
