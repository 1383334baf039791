// Correct, but keeps every hit in a log, filtered on each getHits: memory grows with the traffic,
// not with the window.
export const expectation = { verdict: 'accepted', trap: 'bounded-memory' };

export class HitCounter {
  private hits: number[] = [];

  hit(timestamp: number): void {
    this.hits.push(timestamp);
  }

  getHits(timestamp: number): number {
    this.hits = this.hits.filter((h) => h > timestamp - 300);
    return this.hits.length;
  }
}
