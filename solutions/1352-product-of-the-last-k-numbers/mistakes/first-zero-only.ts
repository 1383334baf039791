// Remembers only the first zero it sees, so a later zero inside the window is missed.
export const expectation = { verdict: 'wrong-answer', trap: 'multiple-zeros' };

export class ProductOfNumbers {
  // prefix[i]: product of the numbers before index i, back to the last zero.
  private readonly prefix: number[] = [1];
  private zeroAt = -1;

  add(num: number): void {
    if (num === 0) {
      if (this.zeroAt === -1) this.zeroAt = this.prefix.length - 1;
      this.prefix.push(1);
    } else {
      this.prefix.push((this.prefix[this.prefix.length - 1] as number) * num);
    }
  }

  getProduct(k: number): number {
    const n = this.prefix.length - 1;
    if (this.zeroAt >= n - k) return 0;
    return (this.prefix[n] as number) / (this.prefix[n - k] as number);
  }
}
