// Prefix products without the leading 1: when k is the whole run, it divides by prefix[-1].
export const expectation = { verdict: 'wrong-answer', trap: 'k-equals-length' };

export class ProductOfNumbers {
  private prefix: number[] = [];

  add(num: number): void {
    if (num === 0) this.prefix = [];
    else this.prefix.push((this.prefix[this.prefix.length - 1] ?? 1) * num);
  }

  getProduct(k: number): number {
    const n = this.prefix.length;
    if (k > n) return 0;
    return (this.prefix[n - 1] as number) / (this.prefix[n - 1 - k] as number);
  }
}
