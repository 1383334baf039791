// expect: runtime-error
// expect-message: TypeError: Cannot read properties of undefined (reading '0')
/* eslint-disable no-var, @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// Written for datastructures-js 5.x, as many published answers were: enqueue(element, priority)
// and front().element. LeetCode now runs 6.x, where enqueue ignores a second argument, a queue
// built without a callback compares records with `<` (never true for arrays), and front()
// returns the record, whose `.element` is undefined: the first maximum() throws, here as there.

var StockPrice = function () {
  this.prices = new Map();
  this.latest = 0;
  this.high = new MaxPriorityQueue();
  this.low = new MinPriorityQueue();
};

/**
 * @param {number} timestamp
 * @param {number} price
 * @return {void}
 */
StockPrice.prototype.update = function (timestamp, price) {
  this.prices.set(timestamp, price);
  this.latest = Math.max(this.latest, timestamp);
  this.high.enqueue([timestamp, price], price);
  this.low.enqueue([timestamp, price], price);
};

/** @return {number} */
StockPrice.prototype.current = function () {
  return this.prices.get(this.latest);
};

/** @return {number} */
StockPrice.prototype.maximum = function () {
  while (this.prices.get(this.high.front().element[0]) !== this.high.front().element[1]) {
    this.high.dequeue();
  }
  return this.high.front().element[1];
};

/** @return {number} */
StockPrice.prototype.minimum = function () {
  while (this.prices.get(this.low.front().element[0]) !== this.low.front().element[1]) {
    this.low.dequeue();
  }
  return this.low.front().element[1];
};

export { StockPrice };
