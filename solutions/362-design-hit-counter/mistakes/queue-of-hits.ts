// Correct, but keeps one queue entry per hit: memory grows with the traffic, not with the window.
export const expectation = { verdict: 'accepted', trap: 'bounded-memory' };

export class HitCounter {
  private hits: number[] = [];
  private head = 0;

  constructor(private readonly window: number = 300) {}

  hit(timestamp: number): void {
    this.hits.push(timestamp);
  }

  getHits(timestamp: number): number {
    const cutoff = timestamp - this.window;
    while (this.head < this.hits.length && (this.hits[this.head] as number) <= cutoff) this.head++;
    if (this.head > 1024 && this.head * 2 > this.hits.length) {
      this.hits = this.hits.slice(this.head);
      this.head = 0;
    }
    return this.hits.length - this.head;
  }
}
