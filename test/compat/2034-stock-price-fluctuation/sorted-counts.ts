// expect: accepted
/* eslint-disable no-var, @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// A count per price, and the distinct prices in a sorted array found by binary search: a
// correction takes one count off the old price and drops the price when none is left.

var StockPrice = function () {
  this.prices = new Map();
  this.counts = new Map();
  this.sorted = [];
  this.latest = 0;
};

StockPrice.prototype.position = function (price) {
  let lo = 0;
  let hi = this.sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (this.sorted[mid] < price) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/**
 * @param {number} timestamp
 * @param {number} price
 * @return {void}
 */
StockPrice.prototype.update = function (timestamp, price) {
  if (this.prices.has(timestamp)) {
    const old = this.prices.get(timestamp);
    const left = this.counts.get(old) - 1;
    if (left === 0) {
      this.counts.delete(old);
      this.sorted.splice(this.position(old), 1);
    } else {
      this.counts.set(old, left);
    }
  }
  this.prices.set(timestamp, price);
  this.latest = Math.max(this.latest, timestamp);
  if (!this.counts.has(price)) this.sorted.splice(this.position(price), 0, price);
  this.counts.set(price, (this.counts.get(price) || 0) + 1);
};

/** @return {number} */
StockPrice.prototype.current = function () {
  return this.prices.get(this.latest);
};

/** @return {number} */
StockPrice.prototype.maximum = function () {
  return this.sorted[this.sorted.length - 1];
};

/** @return {number} */
StockPrice.prototype.minimum = function () {
  return this.sorted[0];
};

export { StockPrice };
