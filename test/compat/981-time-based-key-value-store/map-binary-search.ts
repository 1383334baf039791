// expect: accepted
// A Map from key to [timestamp, value] pairs, appended in time order, and an upper-bound search.

export class TimeMap {
  private readonly store = new Map<string, [number, string][]>();

  set(key: string, value: string, timestamp: number): void {
    if (!this.store.has(key)) this.store.set(key, []);
    this.store.get(key)!.push([timestamp, value]);
  }

  get(key: string, timestamp: number): string {
    const entries = this.store.get(key) ?? [];
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (entries[mid]![0] <= timestamp) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? '' : entries[lo - 1]![1];
  }
}
