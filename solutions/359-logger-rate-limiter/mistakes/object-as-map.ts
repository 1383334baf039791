// The popular published solution (doocs/leetcode, JavaScript) with a plain `{}` as the map: a message
// named "__proto__" goes to the prototype setter instead of being stored, so it always prints.
export const expectation = { verdict: 'wrong-answer', trap: 'prototype-keys' };

export class Logger {
  private readonly limiter: Record<string, number> = {};

  shouldPrintMessage(timestamp: number, message: string): boolean {
    const t = this.limiter[message] || 0;
    if (t > timestamp) {
      return false;
    }
    this.limiter[message] = timestamp + 10;
    return true;
  }
}
