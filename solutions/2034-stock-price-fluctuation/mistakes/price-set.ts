// Keeps the current prices in a Set: a correction deletes the old price, though another timestamp
// may still hold it.
export const expectation = { verdict: 'wrong-answer', trap: 'duplicate-prices' };

export class StockPrice {
  private readonly byTime = new Map<number, number>();
  private readonly prices = new Set<number>();
  private latest = 0;

  update(timestamp: number, price: number): void {
    const old = this.byTime.get(timestamp);
    if (old !== undefined) this.prices.delete(old);
    this.byTime.set(timestamp, price);
    this.prices.add(price);
    this.latest = Math.max(this.latest, timestamp);
  }

  current(): number {
    return this.byTime.get(this.latest) as number;
  }

  maximum(): number {
    return Math.max(...this.prices);
  }

  minimum(): number {
    return Math.min(...this.prices);
  }
}
