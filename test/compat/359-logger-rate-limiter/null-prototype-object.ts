// expect: accepted
/* eslint-disable no-var, @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// A plain object again, but made with Object.create(null): it has no prototype, so a message named
// "constructor" or "__proto__" finds nothing there and is stored like any other.

var Logger = function () {
  this.last = Object.create(null);
};

/**
 * @param {number} timestamp
 * @param {string} message
 * @return {boolean}
 */
Logger.prototype.shouldPrintMessage = function (timestamp, message) {
  if (message in this.last && timestamp - this.last[message] < 10) return false;
  this.last[message] = timestamp;
  return true;
};

export { Logger };
