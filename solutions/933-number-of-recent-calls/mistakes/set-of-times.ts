// Stores times in a Set, so pings that share a timestamp count once.
export const expectation = { verdict: 'accepted', trap: 'equal-timestamps' };

export class RecentCounter {
  private readonly times = new Set<number>();

  constructor(private readonly window: number = 3000) {}

  ping(t: number): number {
    this.times.add(t);
    for (const time of this.times) {
      if (time >= t - this.window) break;
      this.times.delete(time);
    }
    return this.times.size;
  }
}
