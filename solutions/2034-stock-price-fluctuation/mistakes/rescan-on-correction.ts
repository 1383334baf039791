// Correct, but keeps a running maximum and minimum and walks every price whenever a correction
// takes one of them away: O(n) for each such correction.
export const expectation = { verdict: 'accepted', trap: 'scale' };

export class StockPrice {
  private readonly prices = new Map<number, number>();
  private latest = 0;
  private highest = -Infinity;
  private lowest = Infinity;

  update(timestamp: number, price: number): void {
    const old = this.prices.get(timestamp);
    this.prices.set(timestamp, price);
    this.latest = Math.max(this.latest, timestamp);
    if (old === this.highest || old === this.lowest) {
      this.highest = -Infinity;
      this.lowest = Infinity;
      for (const p of this.prices.values()) {
        if (p > this.highest) this.highest = p;
        if (p < this.lowest) this.lowest = p;
      }
    } else {
      this.highest = Math.max(this.highest, price);
      this.lowest = Math.min(this.lowest, price);
    }
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
