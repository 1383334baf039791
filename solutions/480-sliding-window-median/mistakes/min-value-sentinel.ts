// Finds each window's middle values by selection: it takes the largest value out again and again,
// starting each search from Number.MIN_VALUE as if it were the lowest number. It is not: it is the
// smallest positive number, 5e-324. While the window holds a positive value the search is right;
// once only negative values are left it finds nothing, takes out the last value instead, and
// answers 5e-324.
export const expectation = { verdict: 'wrong-answer', trap: 'all-negative' };

export function medianSlidingWindow(nums: number[], k: number): number[] {
  const medians: number[] = [];
  for (let start = 0; start + k <= nums.length; start++) {
    const window = nums.slice(start, start + k);
    // Taking out the largest floor((k - 1) / 2) values leaves the median (k odd) or the upper
    // middle value (k even) as the largest.
    for (let taken = 0; taken < (k - 1) >> 1; taken++) takeLargest(window);
    const high = takeLargest(window);
    medians.push(k % 2 === 1 ? high : (high + takeLargest(window)) / 2);
  }
  return medians;
}

function takeLargest(window: number[]): number {
  let largest = Number.MIN_VALUE;
  let at = -1;
  window.forEach((value, i) => {
    if (value > largest) {
      largest = value;
      at = i;
    }
  });
  window.splice(at, 1);
  return largest;
}
