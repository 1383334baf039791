// Heaps of prices with lazy deletion, but what a correction removes is remembered as a price in a
// Set: once one timestamp leaves a price, every record at that price is treated as gone.
export const expectation = { verdict: 'wrong-answer', trap: 'duplicate-prices' };

export class StockPrice {
  private readonly prices = new Map<number, number>();
  private latest = 0;
  private readonly highest = new MaxPriorityQueue<number>();
  private readonly lowest = new MinPriorityQueue<number>();
  private readonly removed = new Set<number>();

  update(timestamp: number, price: number): void {
    const old = this.prices.get(timestamp);
    if (old !== undefined) this.removed.add(old);
    this.removed.delete(price);
    this.prices.set(timestamp, price);
    this.latest = Math.max(this.latest, timestamp);
    this.highest.enqueue(price);
    this.lowest.enqueue(price);
  }

  current(): number {
    return this.prices.get(this.latest) as number;
  }

  maximum(): number {
    while (this.removed.has(this.highest.front() as number)) this.highest.dequeue();
    return this.highest.front() as number;
  }

  minimum(): number {
    while (this.removed.has(this.lowest.front() as number)) this.lowest.dequeue();
    return this.lowest.front() as number;
  }
}
