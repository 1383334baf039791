// expect: accepted
/* eslint-disable no-var, @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// A plain object as a map from second to hits. Its keys are numbers, so no key can be the name of
// something every object has: a plain object is safe here.

var HitCounter = function () {
  this.counts = {};
};

HitCounter.prototype.hit = function (timestamp) {
  this.counts[timestamp] = (this.counts[timestamp] || 0) + 1;
};

HitCounter.prototype.getHits = function (timestamp) {
  let total = 0;
  for (const second in this.counts) {
    if (second <= timestamp - 300) delete this.counts[second];
    else total += this.counts[second];
  }
  return total;
};

export { HitCounter };
