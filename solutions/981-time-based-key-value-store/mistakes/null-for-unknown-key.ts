// Answers null for a key that was never set, as Java's map would: the contract is "", always a
// string.
export const expectation = { verdict: 'wrong-answer', trap: 'unknown-key' };

export class TimeMap {
  private readonly histories = new Map<string, Array<[number, string]>>();

  set(key: string, value: string, timestamp: number): void {
    const history = this.histories.get(key) ?? [];
    history.push([timestamp, value]);
    this.histories.set(key, history);
  }

  get(key: string, timestamp: number): string | null {
    const history = this.histories.get(key);
    if (history === undefined) return null;
    let lo = 0;
    let hi = history.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((history[mid] as [number, string])[0] <= timestamp) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? '' : (history[lo - 1] as [number, string])[1];
  }
}
