// Expires at most one ping per call: `if` where `while` belongs.
export const expectation = { verdict: 'wrong-answer', trap: 'idle-gap-drain' };

export class RecentCounter {
  private readonly times: number[] = [];
  private head = 0;

  constructor(private readonly window: number = 3000) {}

  ping(t: number): number {
    this.times.push(t);
    if ((this.times[this.head] as number) < t - this.window) this.head++;
    return this.times.length - this.head;
  }
}
