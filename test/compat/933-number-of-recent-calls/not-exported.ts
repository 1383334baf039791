// expect: compile-error
// expect-message: must export a class named RecentCounter
/* eslint-disable @typescript-eslint/no-unused-vars -- pasted as it is */
// LeetCode's TypeScript template pasted as it is, without an export: the judge cannot find the class.

class RecentCounter {
  private queue: number[] = [];

  ping(t: number): number {
    this.queue.push(t);
    while ((this.queue[0] as number) < t - 3000) this.queue.shift();
    return this.queue.length;
  }
}

/**
 * Your RecentCounter object will be instantiated and called as such:
 * var obj = new RecentCounter()
 * var param_1 = obj.ping(t)
 */
