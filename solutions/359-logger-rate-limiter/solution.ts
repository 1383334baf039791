// Reference: for every message, the last time it was printed, in a Map; plus a
// queue of the prints of the last ten seconds, so that messages gone quiet are
// forgotten.
//
// Why it is right: a message may print at `t` when it has never printed, or
// last printed at or before `t - 10`. Only a print moves the message's time; a
// suppressed call changes nothing, so the ten seconds run from the last print,
// not from the last attempt. The stored time is compared with `!== undefined`
// (via the Map), never by truthiness, so a print at time 0 counts. A Map, not a
// plain object, holds the times: messages are arbitrary strings, and keys such
// as "constructor", "__proto__" or "hasOwnProperty" would collide with what
// every object inherits.
//
// Traps it avoids: `>= 10`, not `> 10` (ten-second-boundary); only prints move
// the clock (reject-keeps-clock); `!== undefined`, not truthiness
// (timestamp-zero); a Map, not `{}` (prototype-keys); one time per message
// (independent-messages); state on the instance (instance-isolation);
// forgetting old messages (bounded-memory).
//
// Forgetting: each print is appended to a queue of (time, message) read through
// a head index. Timestamps never decrease, so the prints ten or more seconds
// old are always a prefix of the queue; before answering, that prefix is walked
// and each of its messages is removed from the Map. That entry is the message's
// latest print: it cannot print again while it is still in the Map. A message
// absent from the Map has not printed in the last ten seconds, which is exactly
// when it may print, so the answers are the same as with a Map that keeps
// everything.
//
// Cost: O(1) amortised per call (every print enters the queue once and leaves
// it once). Memory O(messages printed in the last ten seconds): the Map holds
// only those, and the queue's dead prefix is cut off once it is at least half
// the array.
export class Logger {
  private readonly lastPrinted = new Map<string, number>();
  private times: number[] = [];
  private messages: string[] = [];
  private head = 0;

  shouldPrintMessage(timestamp: number, message: string): boolean {
    this.forgetBefore(timestamp - 10);
    // The core answer; forgetting only saves memory (after it, a message still
    // in the Map always printed less than ten seconds ago, but the test below
    // would be right without it too).
    const last = this.lastPrinted.get(message);
    if (last !== undefined && timestamp - last < 10) return false;
    this.lastPrinted.set(message, timestamp);
    this.times.push(timestamp);
    this.messages.push(message);
    return true;
  }

  /** Forgets the messages whose last print was at or before `cutoff`. */
  private forgetBefore(cutoff: number): void {
    while (this.head < this.times.length && (this.times[this.head] as number) <= cutoff) {
      this.lastPrinted.delete(this.messages[this.head] as string);
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.messages = this.messages.slice(this.head);
      this.head = 0;
    }
  }
}
