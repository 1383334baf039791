// Reference: prefix products of the numbers added since the last zero.
//
// The idea: with `prefix[i]` = product of the first `i` numbers of the current
// run (`prefix[0] = 1`), the product of the last `k` numbers of the run is
// `prefix[n] / prefix[n - k]`, one division. Division by zero is the catch: a
// zero would make every later prefix 0. So a zero restarts the run (`prefix`
// goes back to `[1]`), and any window reaching back to that zero has product 0.
//
// Why it is right: `n = prefix.length - 1` numbers have been added since the
// last zero (or since the start). The window of the last `k` numbers holds the
// zero exactly when `k > n`: with `k === n` it starts just after the zero
// (which is `k + 1` back, outside), with `k === n + 1` the zero itself is its
// first number. When `k <= n` the window lies inside the run, and
// `prefix[n - k]` exists thanks to the leading 1, including `k === n` (the
// whole run, or every number added when there was no zero).
//
// Exactness: LeetCode guarantees that every contiguous product fits in 32 bits,
// and each prefix of a run is one such product, so every `prefix[i]` is an
// integer below 2^31: exact as a double, and the quotient of two of them is
// exact too.
//
// Cost: O(1) per call (amortised for `add`), memory O(numbers since the last
// zero). An O(k) loop over the last `k` numbers is correct but too slow once
// `k` is large and queries are many.
export class ProductOfNumbers {
  private readonly prefix: number[] = [1];

  add(num: number): void {
    if (num === 0) {
      this.prefix.length = 1; // restart the run; prefix[0] stays 1
      return;
    }
    this.prefix.push((this.prefix[this.prefix.length - 1] as number) * num);
  }

  getProduct(k: number): number {
    const n = this.prefix.length - 1;
    if (k > n) return 0;
    return (this.prefix[n] as number) / (this.prefix[n - k] as number);
  }
}
