// Searches for the last time strictly before t: a value set at t itself is missed.
export const expectation = { verdict: 'wrong-answer', trap: 'exact-timestamp' };

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
    return lo === 0 ? '' : (history[lo - 1] as [number, string])[1];
  }
}
