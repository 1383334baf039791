// Correct, but never removes a message: the map keeps every message ever printed.
export const expectation = { verdict: 'accepted', trap: 'bounded-memory' };

export class Logger {
  private readonly last = new Map<string, number>();

  shouldPrintMessage(timestamp: number, message: string): boolean {
    const time = this.last.get(message);
    if (time !== undefined && timestamp - time < 10) return false;
    this.last.set(message, timestamp);
    return true;
  }
}
