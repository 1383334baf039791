// 362's ring as it is: a bucket is reset whenever its stored second differs, so a hit too late to
// count wipes the newer second that shares its bucket.
export const expectation = { verdict: 'wrong-answer', trap: 'late-hit-clobbers' };

export class HitCounter {
  private readonly times = new Array<number>(300).fill(0);
  private readonly counts = new Array<number>(300).fill(0);

  hit(timestamp: number): void {
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
