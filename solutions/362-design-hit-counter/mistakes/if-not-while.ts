// Expires at most one hit per getHits call: `if` where `while` belongs.
export const expectation = { verdict: 'wrong-answer', trap: 'long-idle' };

export class HitCounter {
  private readonly hits: number[] = [];
  private head = 0;

  hit(timestamp: number): void {
    this.hits.push(timestamp);
  }

  getHits(timestamp: number): number {
    if (this.head < this.hits.length && (this.hits[this.head] as number) <= timestamp - 300) {
      this.head++;
    }
    return this.hits.length - this.head;
  }
}
