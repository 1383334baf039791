// Correct, but walks every price on each maximum() and minimum(): O(n) a query.
export const expectation = { verdict: 'accepted', trap: 'scale' };

export class StockPrice {
  private readonly prices = new Map<number, number>();
  private latest = 0;

  update(timestamp: number, price: number): void {
    this.prices.set(timestamp, price);
    this.latest = Math.max(this.latest, timestamp);
  }

  current(): number {
    return this.prices.get(this.latest) as number;
  }

  maximum(): number {
    let highest = -Infinity;
    for (const price of this.prices.values()) if (price > highest) highest = price;
    return highest;
  }

  minimum(): number {
    let lowest = Infinity;
    for (const price of this.prices.values()) if (price < lowest) lowest = price;
    return lowest;
  }
}
