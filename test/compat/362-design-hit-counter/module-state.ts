// expect: wrong-answer instance-isolation
/* eslint-disable no-var, @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// The hits live at module level and the constructor resets them. LeetCode builds one counter per
// test, so this passes there; two counters at once share (and wipe) each other's hits.

let hits = [];

var HitCounter = function () {
  hits = [];
};

HitCounter.prototype.hit = function (timestamp) {
  hits.push(timestamp);
};

HitCounter.prototype.getHits = function (timestamp) {
  while (hits.length > 0 && hits[0] <= timestamp - 300) hits.shift();
  return hits.length;
};

export { HitCounter };
