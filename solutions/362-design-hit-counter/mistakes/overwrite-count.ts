// Sets a second's bucket to 1 on every hit instead of adding to it: a burst counts once.
export const expectation = { verdict: 'wrong-answer', trap: 'same-second-burst' };

export class HitCounter {
  private readonly times = new Array<number>(300).fill(0);
  private readonly counts = new Array<number>(300).fill(0);

  hit(timestamp: number): void {
    const slot = timestamp % 300;
    this.times[slot] = timestamp;
    this.counts[slot] = 1;
  }

  getHits(timestamp: number): number {
    let total = 0;
    for (let slot = 0; slot < 300; slot++) {
      if (timestamp - (this.times[slot] as number) < 300) total += this.counts[slot] as number;
    }
    return total;
  }
}
