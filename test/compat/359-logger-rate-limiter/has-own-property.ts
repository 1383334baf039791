// expect: runtime-error prototype-keys
/* eslint-disable no-var, no-prototype-builtins, @typescript-eslint/ban-ts-comment */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// A plain {} checked with hasOwnProperty: careful about inherited keys, until the message
// "hasOwnProperty" is stored and replaces the method it calls.

var Logger = function () {
  this.last = {};
};

Logger.prototype.shouldPrintMessage = function (timestamp, message) {
  if (this.last.hasOwnProperty(message) && timestamp - this.last[message] < 10) return false;
  this.last[message] = timestamp;
  return true;
};

export { Logger };
