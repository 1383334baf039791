// Correct and O(1) per ping, but the head index only skips expired pings: the array keeps every ping
// ever made, so memory grows with the traffic, not with the window.
export const expectation = { verdict: 'accepted', trap: 'bounded-memory' };

export class RecentCounter {
  private readonly times: number[] = [];
  private head = 0;

  constructor(private readonly window: number = 3000) {}

  ping(t: number): number {
    this.times.push(t);
    while ((this.times[this.head] as number) < t - this.window) this.head++;
    return this.times.length - this.head;
  }
}
