// Keeps the histories at module level, so every TimeMap shares them.
export const expectation = { verdict: 'wrong-answer', trap: 'instance-isolation' };

const histories = new Map<string, Array<[number, string]>>();

export class TimeMap {
  set(key: string, value: string, timestamp: number): void {
    const history = histories.get(key) ?? [];
    history.push([timestamp, value]);
    histories.set(key, history);
  }

  get(key: string, timestamp: number): string {
    const history = histories.get(key);
    if (history === undefined) return '';
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
