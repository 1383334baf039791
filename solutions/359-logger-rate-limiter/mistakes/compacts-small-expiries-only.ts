// Forgets old prints only in small batches: when more than 1,000 expire in one call it puts the cleanup
// off to keep that call quick. The backlog then only grows, so after one burst it never cleans again.
export const expectation = { verdict: 'accepted', trap: 'bounded-memory' };

const BATCH = 1000;

export class Logger {
  private readonly last = new Map<string, number>();
  private times: number[] = [];
  private messages: string[] = [];
  private head = 0;

  shouldPrintMessage(timestamp: number, message: string): boolean {
    const cutoff = timestamp - 10;
    // More than BATCH prints expired at once: too much work for one call, leave it for later.
    const tooMany = (this.times[this.head + BATCH] ?? Infinity) <= cutoff;
    if (!tooMany) {
      while (this.head < this.times.length && (this.times[this.head] as number) <= cutoff) {
        this.last.delete(this.messages[this.head] as string);
        this.head++;
      }
      if (this.head > 1024 && this.head * 2 > this.times.length) {
        this.times = this.times.slice(this.head);
        this.messages = this.messages.slice(this.head);
        this.head = 0;
      }
    }
    const last = this.last.get(message);
    if (last !== undefined && timestamp - last < 10) return false;
    this.last.set(message, timestamp);
    this.times.push(timestamp);
    this.messages.push(message);
    return true;
  }
}
