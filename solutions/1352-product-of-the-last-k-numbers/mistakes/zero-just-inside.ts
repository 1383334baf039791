// Tracks the last zero's index but tests `>` where `>=` belongs: a zero exactly k back is missed.
export const expectation = { verdict: 'wrong-answer', trap: 'zero-boundary' };

export class ProductOfNumbers {
  // prefix[i]: product of the numbers before index i, back to the last zero.
  private readonly prefix: number[] = [1];
  private lastZero = -1;

  add(num: number): void {
    if (num === 0) {
      this.lastZero = this.prefix.length - 1;
      this.prefix.push(1);
    } else {
      this.prefix.push((this.prefix[this.prefix.length - 1] as number) * num);
    }
  }

  getProduct(k: number): number {
    const n = this.prefix.length - 1;
    if (this.lastZero > n - k) return 0;
    return (this.prefix[n] as number) / (this.prefix[n - k] as number);
  }
}
