// Clears one bucket per elapsed second before each call, so a silence of 2·10^9 seconds costs
// 2·10^9 steps.
export const expectation = { verdict: 'time-limit-exceeded', trap: 'long-idle' };

export class HitCounter {
  private readonly counts = new Array<number>(300).fill(0);
  private latest = 0;

  private advance(timestamp: number): void {
    while (this.latest < timestamp) {
      this.latest++;
      this.counts[this.latest % 300] = 0;
    }
  }

  hit(timestamp: number): void {
    if (timestamp <= this.latest - 300) return;
    this.advance(timestamp);
    const slot = timestamp % 300;
    this.counts[slot] = (this.counts[slot] as number) + 1;
  }

  getHits(timestamp: number): number {
    this.advance(timestamp);
    return this.counts.reduce((sum, count) => sum + count, 0);
  }
}
