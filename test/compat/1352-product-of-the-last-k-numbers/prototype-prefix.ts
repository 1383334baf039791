// expect: accepted
/* eslint-disable no-var, @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// The same prefix products, JavaScript-style, remembering where the last zero was instead of
// starting over.

var ProductOfNumbers = function () {
  this.prefix = [1];
  this.lastZero = -1;
};

ProductOfNumbers.prototype.add = function (num) {
  if (num === 0) {
    this.lastZero = this.prefix.length - 1;
    this.prefix.push(1);
  } else {
    this.prefix.push(this.prefix[this.prefix.length - 1] * num);
  }
};

ProductOfNumbers.prototype.getProduct = function (k) {
  const n = this.prefix.length - 1;
  if (n - k <= this.lastZero) return 0;
  return this.prefix[n] / this.prefix[n - k];
};

export { ProductOfNumbers };
