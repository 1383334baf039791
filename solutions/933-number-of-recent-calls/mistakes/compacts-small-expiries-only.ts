// Cuts the dead prefix off only while it is at most 1024 pings long, so that no single ping pays
// for a large copy. A burst of more than 1024 pings leaving the window in one ping jumps past that
// size, and from then on the head only moves further: the array keeps every later ping.
export const expectation = { verdict: 'accepted', trap: 'bounded-memory' };

export class RecentCounter {
  private times: number[] = [];
  private head = 0;

  constructor(private readonly window: number = 3000) {}

  ping(t: number): number {
    this.times.push(t);
    while ((this.times[this.head] as number) < t - this.window) this.head++;
    if (this.head <= 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
    return this.times.length - this.head;
  }
}
