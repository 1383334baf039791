// Correct, but `shift()` copies the array once it is large: fine for LeetCode, too slow at scale.
export const expectation = { verdict: 'accepted', trap: 'scale' };

export class RecentCounter {
  private readonly times: number[] = [];

  constructor(private readonly window: number = 3000) {}

  ping(t: number): number {
    this.times.push(t);
    while ((this.times[0] as number) < t - this.window) this.times.shift();
    return this.times.length;
  }
}
