// Keeps a hit exactly 300 seconds old: expires with `< t - 300`, as if the window were [t - 300, t].
export const expectation = { verdict: 'wrong-answer', trap: 'window-boundary' };

export class HitCounter {
  private readonly hits: number[] = [];
  private head = 0;

  hit(timestamp: number): void {
    this.hits.push(timestamp);
  }

  getHits(timestamp: number): number {
    while (this.head < this.hits.length && (this.hits[this.head] as number) < timestamp - 300) {
      this.head++;
    }
    return this.hits.length - this.head;
  }
}
