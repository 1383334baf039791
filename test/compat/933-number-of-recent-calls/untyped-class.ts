// expect: accepted
/* eslint-disable @typescript-eslint/ban-ts-comment -- pasted as it is */
// @ts-nocheck -- JavaScript as LeetCode's JS template has it: untyped, taken by the judge as it is
// LeetCode's JavaScript also takes an ES6 class: fields assigned in the constructor, never declared,
// and parameters without types.

class RecentCounter {
  constructor() {
    this.queue = [];
  }

  ping(t) {
    this.queue.push(t);
    while (this.queue[0] < t - 3000) this.queue.shift();
    return this.queue.length;
  }
}

export { RecentCounter };
