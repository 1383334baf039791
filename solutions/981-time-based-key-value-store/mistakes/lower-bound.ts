// Binary-searches for the first time >= t and returns its value when there is one: right when t
// was set exactly, but between two sets it answers with the later one.
export const expectation = { verdict: 'wrong-answer', trap: 'nearest-not-latest' };

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
    let lo = 0;
    let hi = history.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((history[mid] as [number, string])[0] < timestamp) lo = mid + 1;
      else hi = mid;
    }
    if (lo < history.length) return (history[lo] as [number, string])[1];
    return lo > 0 ? (history[lo - 1] as [number, string])[1] : '';
  }
}
