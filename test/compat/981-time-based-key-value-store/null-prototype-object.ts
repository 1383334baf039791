// expect: accepted
// A `{}` without a prototype (Object.create(null)): no key is inherited, so "constructor" is a key
// like any other.

export class TimeMap {
  private readonly store: Record<string, { times: number[]; values: string[] }> =
    Object.create(null);

  set(key: string, value: string, timestamp: number): void {
    const history = (this.store[key] ??= { times: [], values: [] });
    history.times.push(timestamp);
    history.values.push(value);
  }

  get(key: string, timestamp: number): string {
    const history = this.store[key];
    if (history === undefined) return '';
    let lo = 0;
    let hi = history.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (history.times[mid]! <= timestamp) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? '' : history.values[lo - 1]!;
  }
}
