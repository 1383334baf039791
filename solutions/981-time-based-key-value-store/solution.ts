// Reference: per key, its timestamps and values in two arrays, appended in time
// order, and a binary search for the last timestamp at or before the one asked
// about.
//
// Why it is right: `set` timestamps strictly increase across all calls, so each
// key's history is already sorted when appended to: no insertion in the middle,
// ever. `get(key, t)` wants the latest entry whose time is <= t: the search
// finds the first time > t (an upper bound) and steps back one. Stepping back
// from the first entry means nothing was set by then: "". A key never set has
// no history at all, also "". The store is a `Map`, so a key such as
// "constructor" or "__proto__" is a key like any other, not something every
// object already has.
//
// Cost: `set` O(1) amortised, `get` O(log m) for a key with m entries; memory
// O(entries). A linear scan costs O(m) per get, and counting down from t until
// a time matches costs O(t): both fine for small histories, far too slow for
// 10^5 entries and 10^5 gets.
export class TimeMap {
  private readonly histories = new Map<string, { times: number[]; values: string[] }>();

  set(key: string, value: string, timestamp: number): void {
    let history = this.histories.get(key);
    if (history === undefined) {
      history = { times: [], values: [] };
      this.histories.set(key, history);
    }
    history.times.push(timestamp);
    history.values.push(value);
  }

  get(key: string, timestamp: number): string {
    const history = this.histories.get(key);
    if (history === undefined) return '';
    const times = history.times;
    // The first index whose time is later than `timestamp` (times.length if
    // none is).
    let lo = 0;
    let hi = times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((times[mid] as number) <= timestamp) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? '' : (history.values[lo - 1] as string);
  }
}
