// Ignores the window it is given and always uses 3000.
export const expectation = { verdict: 'accepted', trap: 'custom-window' };

export class RecentCounter {
  private readonly times: number[] = [];
  private head = 0;

  constructor(_window?: number) {}

  ping(t: number): number {
    this.times.push(t);
    while ((this.times[this.head] as number) < t - 3000) this.head++;
    return this.times.length - this.head;
  }
}
