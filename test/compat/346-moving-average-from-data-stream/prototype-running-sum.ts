// expect: accepted
/* eslint-disable no-var, @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// A queue and a running sum, on the prototype.

/**
 * @param {number} size
 */
var MovingAverage = function (size) {
  this.size = size;
  this.values = [];
  this.sum = 0;
};

/**
 * @param {number} val
 * @return {number}
 */
MovingAverage.prototype.next = function (val) {
  this.values.push(val);
  this.sum += val;
  if (this.values.length > this.size) this.sum -= this.values.shift();
  return this.sum / this.values.length;
};

export { MovingAverage };
