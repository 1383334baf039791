// Correct, but multiplies the last k numbers on every query: O(k) each, too slow at scale.
export const expectation = { verdict: 'accepted', trap: 'scale' };

export class ProductOfNumbers {
  private readonly nums: number[] = [];

  add(num: number): void {
    this.nums.push(num);
  }

  getProduct(k: number): number {
    let product = 1;
    for (let i = this.nums.length - k; i < this.nums.length; i++) product *= this.nums[i] as number;
    return product;
  }
}
