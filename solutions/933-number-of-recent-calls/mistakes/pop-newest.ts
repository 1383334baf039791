// Checks the oldest ping but removes the newest: `pop()` where the front should go.
export const expectation = { verdict: 'wrong-answer', trap: 'expire-oldest' };

export class RecentCounter {
  private readonly times: number[] = [];

  constructor(private readonly window: number = 3000) {}

  ping(t: number): number {
    this.times.push(t);
    while (this.times.length > 0 && (this.times[0] as number) < t - this.window) this.times.pop();
    return this.times.length;
  }
}
