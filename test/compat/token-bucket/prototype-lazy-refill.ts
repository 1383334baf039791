// expect: accepted
/* eslint-disable no-var, @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// Not on LeetCode, but written the way its JavaScript answers are: a lazy refill on the prototype.

var TokenBucket = function (rate, capacity) {
  this.rate = rate;
  this.capacity = capacity;
  this.tokens = capacity;
  this.last = null;
};

TokenBucket.prototype.allow = function (now, cost = 1) {
  if (this.last !== null && now > this.last) {
    this.tokens = Math.min(this.capacity, this.tokens + (now - this.last) * this.rate);
  }
  if (this.last === null || now > this.last) this.last = now;
  if (cost > this.capacity || this.tokens < cost) return false;
  this.tokens -= cost;
  return true;
};

export { TokenBucket };
