// Returns 0 when k equals the run since the last zero (`>=` for `>`): that zero is k + 1 back, outside.
export const expectation = { verdict: 'wrong-answer', trap: 'zero-boundary' };

export class ProductOfNumbers {
  private prefix: number[] = [1];

  add(num: number): void {
    if (num === 0) this.prefix = [1];
    else this.prefix.push((this.prefix[this.prefix.length - 1] as number) * num);
  }

  getProduct(k: number): number {
    const n = this.prefix.length - 1;
    if (k >= n) return 0;
    return (this.prefix[n] as number) / (this.prefix[n - k] as number);
  }
}
