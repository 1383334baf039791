// expect: accepted
// A queue of hits on LeetCode's global Queue (datastructures-js): no import, as on LeetCode.

export class HitCounter {
  private readonly hits = new Queue<number>();

  hit(timestamp: number): void {
    this.hits.enqueue(timestamp);
  }

  getHits(timestamp: number): number {
    while (!this.hits.isEmpty() && this.hits.front()! <= timestamp - 300) this.hits.dequeue();
    return this.hits.size();
  }
}
