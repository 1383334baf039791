// Keeps the prefix products at module level, so every instance shares one stream.
export const expectation = { verdict: 'wrong-answer', trap: 'instance-isolation' };

let prefix: number[] = [1];

export class ProductOfNumbers {
  add(num: number): void {
    if (num === 0) prefix = [1];
    else prefix.push((prefix[prefix.length - 1] as number) * num);
  }

  getProduct(k: number): number {
    const n = prefix.length - 1;
    if (k > n) return 0;
    return (prefix[n] as number) / (prefix[n - k] as number);
  }
}
