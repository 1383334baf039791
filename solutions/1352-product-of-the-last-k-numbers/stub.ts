// Write your ProductOfNumbers here. `npm run kata 1352` judges this file on every save.
// A class pasted from LeetCode works as it is, as long as it is exported.

export class ProductOfNumbers {
  constructor() {}

  add(num: number): void {
    throw new Error('Not implemented: ProductOfNumbers.add');
  }

  getProduct(k: number): number {
    throw new Error('Not implemented: ProductOfNumbers.getProduct');
  }
}
