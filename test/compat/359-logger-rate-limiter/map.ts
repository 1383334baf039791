// expect: accepted
// A Map from message to the time it last printed.

export class Logger {
  private readonly printedAt = new Map<string, number>();

  shouldPrintMessage(timestamp: number, message: string): boolean {
    const last = this.printedAt.get(message);
    if (last !== undefined && timestamp - last < 10) return false;
    this.printedAt.set(message, timestamp);
    return true;
  }
}
