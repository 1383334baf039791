// Keeps the records at module level, so every StockPrice shares one history.
export const expectation = { verdict: 'wrong-answer', trap: 'instance-isolation' };

const prices = new Map<number, number>();
let latest = 0;

export class StockPrice {
  update(timestamp: number, price: number): void {
    prices.set(timestamp, price);
    latest = Math.max(latest, timestamp);
  }

  current(): number {
    return prices.get(latest) as number;
  }

  maximum(): number {
    return Math.max(...prices.values());
  }

  minimum(): number {
    return Math.min(...prices.values());
  }
}
