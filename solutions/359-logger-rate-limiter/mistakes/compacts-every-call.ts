// Keeps no expired print for a moment: after dropping the expired prefix of its queue it copies the
// rest into fresh arrays, on every call, even when nothing expired. Right answers, and memory follows
// the last ten seconds, but each call costs as much as the prints it keeps: thousands of different
// messages in one second make the calls quadratic.
export const expectation = { verdict: 'accepted', trap: 'scale' };

export class Logger {
  private readonly last = new Map<string, number>();
  private times: number[] = [];
  private messages: string[] = [];

  shouldPrintMessage(timestamp: number, message: string): boolean {
    let head = 0;
    while (head < this.times.length && (this.times[head] as number) <= timestamp - 10) {
      this.last.delete(this.messages[head] as string);
      head++;
    }
    // The mistake: a copy of everything still recent, whether or not anything expired.
    this.times = this.times.slice(head);
    this.messages = this.messages.slice(head);
    const last = this.last.get(message);
    if (last !== undefined && timestamp - last < 10) return false;
    this.last.set(message, timestamp);
    this.times.push(timestamp);
    this.messages.push(message);
    return true;
  }
}
