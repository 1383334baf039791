// Scans a key's history from the oldest entry and returns the first value set at or before t: the
// earliest such value, not the latest.
export const expectation = { verdict: 'wrong-answer', trap: 'earliest-instead-of-latest' };

export class TimeMap {
  private readonly histories = new Map<string, Array<[number, string]>>();

  set(key: string, value: string, timestamp: number): void {
    const history = this.histories.get(key) ?? [];
    history.push([timestamp, value]);
    this.histories.set(key, history);
  }

  get(key: string, timestamp: number): string {
    for (const [time, value] of this.histories.get(key) ?? []) {
      if (time <= timestamp) return value;
    }
    return '';
  }
}
