// A plain `{}` as the map: for the key "constructor" it finds Object itself, takes it for a history
// that is already there, and calls push on it.
export const expectation = { verdict: 'runtime-error', trap: 'prototype-keys' };

export class TimeMap {
  private readonly histories: Record<string, Array<[number, string]>> = {};

  set(key: string, value: string, timestamp: number): void {
    if (!this.histories[key]) this.histories[key] = [];
    this.histories[key].push([timestamp, value]);
  }

  get(key: string, timestamp: number): string {
    const history = this.histories[key];
    if (!history) return '';
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
