// Remembers the current price only when a strictly newer timestamp arrives: a correction of the
// latest timestamp is missed.
export const expectation = { verdict: 'wrong-answer', trap: 'correction-of-current' };

export class StockPrice {
  private readonly prices = new Map<number, number>();
  private latest = 0;
  private latestPrice = 0;

  update(timestamp: number, price: number): void {
    this.prices.set(timestamp, price);
    if (timestamp > this.latest) {
      this.latest = timestamp;
      this.latestPrice = price;
    }
  }

  current(): number {
    return this.latestPrice;
  }

  maximum(): number {
    return Math.max(...this.prices.values());
  }

  minimum(): number {
    return Math.min(...this.prices.values());
  }
}
