// Allows a message again only after more than ten seconds: `> 10` where `>= 10` belongs.
export const expectation = { verdict: 'wrong-answer', trap: 'ten-second-boundary' };

export class Logger {
  private readonly last = new Map<string, number>();

  shouldPrintMessage(timestamp: number, message: string): boolean {
    const last = this.last.get(message);
    if (last !== undefined && !(timestamp - last > 10)) return false;
    this.last.set(message, timestamp);
    return true;
  }
}
