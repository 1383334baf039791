// expect: accepted
/* eslint-disable no-var, @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// LeetCode's JavaScript template, `var f = function`, exported: a deque of indices in an array,
// its front kept by a head index.

export var maxSlidingWindow = function (nums, k) {
  var deque = [];
  var head = 0;
  var result = [];
  for (var i = 0; i < nums.length; i++) {
    while (deque.length > head && nums[deque[deque.length - 1]] <= nums[i]) deque.pop();
    deque.push(i);
    if (deque[head] === i - k) head++;
    if (i >= k - 1) result.push(nums[deque[head]]);
  }
  return result;
};
