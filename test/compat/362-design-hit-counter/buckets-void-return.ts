// expect: accepted
/* eslint-disable no-var, @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// 300 buckets, one per second of the window. hit() is void, but returns the bucket's new count
// anyway: LeetCode ignores what a void method returns, and so must the judge.

var HitCounter = function () {
  this.times = new Array(300).fill(0);
  this.hits = new Array(300).fill(0);
};

/**
 * @param {number} timestamp
 * @return {void}
 */
HitCounter.prototype.hit = function (timestamp) {
  const i = timestamp % 300;
  if (this.times[i] !== timestamp) {
    this.times[i] = timestamp;
    this.hits[i] = 0;
  }
  return ++this.hits[i];
};

/**
 * @param {number} timestamp
 * @return {number}
 */
HitCounter.prototype.getHits = function (timestamp) {
  let total = 0;
  for (let i = 0; i < 300; i++) {
    if (timestamp - this.times[i] < 300) total += this.hits[i];
  }
  return total;
};

export { HitCounter };
