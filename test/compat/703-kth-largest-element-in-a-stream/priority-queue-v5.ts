// expect: wrong-answer
/* eslint-disable no-var, @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// The v5 heap pattern that LeetCode accepted until it moved to priority-queue v6 in 2025: front()
// now gives the number, so `.element` is undefined (LeetCode today: Wrong Answer).

var KthLargest = function (k, nums) {
  this.k = k;
  this.heap = new MinPriorityQueue();
  for (const num of nums) this.add(num);
};

KthLargest.prototype.add = function (val) {
  this.heap.enqueue(val, val);
  if (this.heap.size() > this.k) this.heap.dequeue();
  return this.heap.front().element;
};

export { KthLargest };
