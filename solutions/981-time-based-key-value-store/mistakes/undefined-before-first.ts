// Remembers the best value found while binary-searching, and returns it as it is: before the first
// set nothing was found, so it returns undefined instead of "".
export const expectation = { verdict: 'wrong-answer', trap: 'before-first' };

export class TimeMap {
  private readonly histories = new Map<string, Array<[number, string]>>();

  set(key: string, value: string, timestamp: number): void {
    const history = this.histories.get(key) ?? [];
    history.push([timestamp, value]);
    this.histories.set(key, history);
  }

  get(key: string, timestamp: number): string {
    const history = this.histories.get(key);
    if (history === undefined) return '';
    let found: string | undefined;
    let lo = 0;
    let hi = history.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [time, value] = history[mid] as [number, string];
      if (time <= timestamp) {
        found = value;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found as string;
  }
}
