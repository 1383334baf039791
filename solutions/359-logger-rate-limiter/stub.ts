// Write your Logger here. `npm run kata 359` judges this file on every save.
// A class pasted from LeetCode works as it is, as long as it is exported.

export class Logger {
  constructor() {}

  shouldPrintMessage(timestamp: number, message: string): boolean {
    throw new Error('Not implemented: Logger.shouldPrintMessage');
  }
}
