// Stores the seconds in a Set, so hits that share a second count once.
export const expectation = { verdict: 'wrong-answer', trap: 'same-second-burst' };

export class HitCounter {
  private readonly times = new Set<number>();

  hit(timestamp: number): void {
    this.times.add(timestamp);
  }

  getHits(timestamp: number): number {
    for (const time of this.times) {
      if (time > timestamp - 300) break;
      this.times.delete(time);
    }
    return this.times.size;
  }
}
