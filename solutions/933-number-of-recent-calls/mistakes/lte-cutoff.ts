// Expires a ping that sits exactly on the cutoff: `<=` where `<` belongs.
export const expectation = { verdict: 'wrong-answer', trap: 'inclusive-boundary' };

export class RecentCounter {
  private readonly times: number[] = [];
  private head = 0;

  constructor(private readonly window: number = 3000) {}

  ping(t: number): number {
    this.times.push(t);
    while ((this.times[this.head] as number) <= t - this.window) this.head++;
    return this.times.length - this.head;
  }
}
