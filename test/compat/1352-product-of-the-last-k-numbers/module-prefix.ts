// expect: wrong-answer instance-isolation
// The prefix products live at module level, reset by the constructor. One instance per test, as on
// LeetCode, never notices; two instances at once do.

let prefix: number[] = [1];

export class ProductOfNumbers {
  constructor() {
    prefix = [1];
  }

  add(num: number): void {
    if (num === 0) prefix = [1];
    else prefix.push((prefix[prefix.length - 1] as number) * num);
  }

  getProduct(k: number): number {
    const n = prefix.length;
    return k >= n ? 0 : (prefix[n - 1] as number) / (prefix[n - 1 - k] as number);
  }
}
