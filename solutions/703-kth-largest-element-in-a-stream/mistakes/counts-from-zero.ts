// Values are bounded, so it counts them in an array indexed by value, and walks down from 10^4 to
// find the k-th largest. It forgot that values go below zero: a negative one lands on a property
// named "-3" that the walk never visits.
export const expectation = { verdict: 'wrong-answer', trap: 'negative-values' };

const MAX_VALUE = 10_000;

export class KthLargest {
  private readonly counts: number[] = new Array<number>(MAX_VALUE + 1).fill(0);

  constructor(
    private readonly k: number,
    nums: number[],
  ) {
    for (const num of nums) this.counts[num] = (this.counts[num] ?? 0) + 1;
  }

  add(val: number): number {
    this.counts[val] = (this.counts[val] ?? 0) + 1;
    let seen = 0;
    for (let value = MAX_VALUE; value >= 0; value--) {
      seen += this.counts[value] as number;
      if (seen >= this.k) return value;
    }
    return 0;
  }
}
