// expect: compile-error
// expect-message: must export a function named maxSlidingWindow
// Pasted without `export`: the judge cannot find the function, and says what it must be called.

function maxSlidingWindow(nums: number[], k: number): number[] {
  return nums.slice(k - 1);
}

void maxSlidingWindow;
