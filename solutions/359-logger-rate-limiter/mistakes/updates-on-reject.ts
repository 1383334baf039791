// Records the time of every call, refused ones too, so each refusal restarts the ten seconds.
export const expectation = { verdict: 'wrong-answer', trap: 'reject-keeps-clock' };

export class Logger {
  private readonly last = new Map<string, number>();

  shouldPrintMessage(timestamp: number, message: string): boolean {
    const last = this.last.get(message);
    this.last.set(message, timestamp);
    return last === undefined || timestamp - last >= 10;
  }
}
