// Remembers only the last printed message, as if only consecutive repeats had to be suppressed.
export const expectation = { verdict: 'wrong-answer', trap: 'independent-messages' };

export class Logger {
  private lastMessage: string | undefined;
  private lastTime = 0;

  shouldPrintMessage(timestamp: number, message: string): boolean {
    if (message === this.lastMessage && timestamp - this.lastTime < 10) return false;
    this.lastMessage = message;
    this.lastTime = timestamp;
    return true;
  }
}
