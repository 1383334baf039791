// Keeps the map at module level, so every logger shares one history.
export const expectation = { verdict: 'wrong-answer', trap: 'instance-isolation' };

const last = new Map<string, number>();

export class Logger {
  shouldPrintMessage(timestamp: number, message: string): boolean {
    const time = last.get(message);
    if (time !== undefined && timestamp - time < 10) return false;
    last.set(message, timestamp);
    return true;
  }
}
