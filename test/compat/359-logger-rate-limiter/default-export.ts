// expect: accepted
// The class is the module's default export: the judge takes it when no export has the class's name.

export default class Logger {
  private readonly nextAllowed = new Map<string, number>();

  shouldPrintMessage(timestamp: number, message: string): boolean {
    if (timestamp < (this.nextAllowed.get(message) ?? -Infinity)) return false;
    this.nextAllowed.set(message, timestamp + 10);
    return true;
  }
}
