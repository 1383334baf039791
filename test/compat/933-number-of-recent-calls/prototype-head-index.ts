// expect: accepted
/* eslint-disable no-var, @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// A constructor function with its method on the prototype; a head index instead of shift().

var RecentCounter = function () {
  this.pings = [];
  this.head = 0;
};

/**
 * @param {number} t
 * @return {number}
 */
RecentCounter.prototype.ping = function (t) {
  this.pings.push(t);
  while (this.pings[this.head] < t - 3000) this.head++;
  return this.pings.length - this.head;
};

export { RecentCounter };

/**
 * Your RecentCounter object will be instantiated and called as such:
 * var obj = new RecentCounter()
 * var param_1 = obj.ping(t)
 */
