// Answers current() with the price of the last update call, whatever its timestamp.
export const expectation = { verdict: 'wrong-answer', trap: 'current-is-latest-timestamp' };

export class StockPrice {
  private readonly prices = new Map<number, number>();
  private last = 0;

  update(timestamp: number, price: number): void {
    this.prices.set(timestamp, price);
    this.last = price;
  }

  current(): number {
    return this.last;
  }

  maximum(): number {
    return Math.max(...this.prices.values());
  }

  minimum(): number {
    return Math.min(...this.prices.values());
  }
}
