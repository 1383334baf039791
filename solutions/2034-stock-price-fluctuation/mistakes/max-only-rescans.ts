// Rescans when the maximum is corrected, but keeps a running minimum that a correction never raises.
export const expectation = { verdict: 'wrong-answer', trap: 'correction-of-min' };

export class StockPrice {
  private readonly prices = new Map<number, number>();
  private latest = 0;
  private highest = -Infinity;
  private lowest = Infinity;

  update(timestamp: number, price: number): void {
    const old = this.prices.get(timestamp);
    this.prices.set(timestamp, price);
    this.latest = Math.max(this.latest, timestamp);
    if (old === this.highest && price < old) {
      this.highest = Math.max(...this.prices.values());
    } else {
      this.highest = Math.max(this.highest, price);
    }
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
