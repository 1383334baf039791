// Prefix products with no restart at a zero: after one, every window divides 0 by 0.
export const expectation = { verdict: 'wrong-answer', trap: 'zero-reset' };

export class ProductOfNumbers {
  private readonly prefix: number[] = [1];

  add(num: number): void {
    this.prefix.push((this.prefix[this.prefix.length - 1] as number) * num);
  }

  getProduct(k: number): number {
    const n = this.prefix.length - 1;
    return (this.prefix[n] as number) / (this.prefix[n - k] as number);
  }
}
