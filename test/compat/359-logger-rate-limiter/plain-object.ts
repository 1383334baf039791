// expect: wrong-answer prototype-keys
/* eslint-disable no-var, @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// A plain {} as the map, the most common accepted answer: LeetCode's messages are ordinary words.
// Storing the message "__proto__" sets the object's prototype instead, so it is never blocked.

var Logger = function () {
  this.last = {};
};

Logger.prototype.shouldPrintMessage = function (timestamp, message) {
  if (message in this.last && timestamp - this.last[message] < 10) return false;
  this.last[message] = timestamp;
  return true;
};

export { Logger };
