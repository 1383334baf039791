// expect: accepted
/* eslint-disable no-var, @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// A constructor function with its methods on the prototype: a Map of histories, searched for the
// last time <= t while remembering the best so far.

var TimeMap = function () {
  this.map = new Map();
};

TimeMap.prototype.set = function (key, value, timestamp) {
  if (!this.map.has(key)) this.map.set(key, []);
  this.map.get(key).push({ timestamp, value });
};

TimeMap.prototype.get = function (key, timestamp) {
  const list = this.map.get(key);
  if (!list) return '';
  let lo = 0;
  let hi = list.length - 1;
  let answer = '';
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (list[mid].timestamp <= timestamp) {
      answer = list[mid].value;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return answer;
};

export { TimeMap };
