// 933's queue: hits appended as they arrive and expired from the front. A late hit sits behind
// newer ones, so it is still counted after its second has left the window.
export const expectation = { verdict: 'wrong-answer', trap: 'late-hit-expires' };

export class HitCounter {
  private readonly hits: number[] = [];
  private head = 0;
  private latest = 0;

  hit(timestamp: number): void {
    if (timestamp <= this.latest - 300) return;
    this.latest = Math.max(this.latest, timestamp);
    this.hits.push(timestamp);
  }

  getHits(timestamp: number): number {
    while (this.head < this.hits.length && (this.hits[this.head] as number) <= timestamp - 300) {
      this.head++;
    }
    return this.hits.length - this.head;
  }
}
