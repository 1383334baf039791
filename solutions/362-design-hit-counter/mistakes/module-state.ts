// Keeps the buckets at module level, so every counter shares one set of hits.
export const expectation = { verdict: 'wrong-answer', trap: 'instance-isolation' };

const times = new Array<number>(300).fill(0);
const counts = new Array<number>(300).fill(0);

export class HitCounter {
  hit(timestamp: number): void {
    const slot = timestamp % 300;
    if (times[slot] !== timestamp) {
      times[slot] = timestamp;
      counts[slot] = 0;
    }
    counts[slot] = (counts[slot] as number) + 1;
  }

  getHits(timestamp: number): number {
    let total = 0;
    for (let slot = 0; slot < 300; slot++) {
      if (timestamp - (times[slot] as number) < 300) total += counts[slot] as number;
    }
    return total;
  }
}
