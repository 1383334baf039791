// expect: accepted
// Prefix products since the last zero; a zero starts them over.

export class ProductOfNumbers {
  private prefix: number[] = [1];

  add(num: number): void {
    if (num === 0) this.prefix = [1];
    else this.prefix.push((this.prefix[this.prefix.length - 1] as number) * num);
  }

  getProduct(k: number): number {
    const n = this.prefix.length;
    if (k >= n) return 0;
    return (this.prefix[n - 1] as number) / (this.prefix[n - 1 - k] as number);
  }
}

/**
 * Your ProductOfNumbers object will be instantiated and called as such:
 * var obj = new ProductOfNumbers()
 * obj.add(num)
 * var param_2 = obj.getProduct(k)
 */
