// Tests the stored time for truthiness, so a message printed at time 0 looks never printed.
export const expectation = { verdict: 'wrong-answer', trap: 'timestamp-zero' };

export class Logger {
  private readonly last = new Map<string, number>();

  shouldPrintMessage(timestamp: number, message: string): boolean {
    const last = this.last.get(message);
    if (last && timestamp - last < 10) return false;
    this.last.set(message, timestamp);
    return true;
  }
}
