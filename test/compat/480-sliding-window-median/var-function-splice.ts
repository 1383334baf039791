// expect: accepted
/* eslint-disable no-var, @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// LeetCode's JavaScript template, `var f = function`, with `export` added: an array kept sorted by
// binary search and splice. O(n·k), accepted at LeetCode's sizes (it fails only the scale
// follow-up, which this corpus does not run).

export var medianSlidingWindow = function (nums, k) {
  var win = [];
  var res = [];
  var find = function (x) {
    var lo = 0,
      hi = win.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (win[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  for (var i = 0; i < nums.length; i++) {
    win.splice(find(nums[i]), 0, nums[i]);
    if (i >= k) win.splice(find(nums[i - k]), 1);
    if (i >= k - 1) res.push((win[Math.floor((k - 1) / 2)] + win[Math.floor(k / 2)]) / 2);
  }
  return res;
};
