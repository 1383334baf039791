// Keeps a running maximum and minimum: a correction can only push them outwards, never back.
export const expectation = { verdict: 'wrong-answer', trap: 'correction-lowers-max' };

export class StockPrice {
  private readonly prices = new Map<number, number>();
  private latest = 0;
  private highest = -Infinity;
  private lowest = Infinity;

  update(timestamp: number, price: number): void {
    this.prices.set(timestamp, price);
    this.latest = Math.max(this.latest, timestamp);
    this.highest = Math.max(this.highest, price);
    this.lowest = Math.min(this.lowest, price);
  }

  current(): number {
    return this.prices.get(this.latest) as number;
  }

  maximum(): number {
    return this.highest;
  }

  minimum(): number {
    return this.lowest;
  }
}
