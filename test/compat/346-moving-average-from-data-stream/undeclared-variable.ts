// expect: runtime-error
// expect-message: i needs `let`
/* eslint-disable no-var, @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// The loop variable is never declared. LeetCode runs JavaScript sloppy, where that assignment
// quietly makes a global; a module is strict, and it throws a ReferenceError on the first call.

var MovingAverage = function (size) {
  this.size = size;
  this.values = [];
};

MovingAverage.prototype.next = function (val) {
  this.values.push(val);
  let sum = 0;
  const start = Math.max(0, this.values.length - this.size);
  for (i = start; i < this.values.length; i++) sum += this.values[i];
  return sum / (this.values.length - start);
};

export { MovingAverage };
