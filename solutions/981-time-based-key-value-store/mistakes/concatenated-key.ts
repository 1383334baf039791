// Keeps each key's times in a list, but the values in one map under key + time, without a
// separator: "foo1" at 1 and "foo" at 11 are both "foo11", and the later set overwrites the other.
export const expectation = { verdict: 'wrong-answer', trap: 'composite-key-collision' };

export class TimeMap {
  private readonly times = new Map<string, number[]>();
  private readonly values = new Map<string, string>();

  set(key: string, value: string, timestamp: number): void {
    const times = this.times.get(key) ?? [];
    times.push(timestamp);
    this.times.set(key, times);
    this.values.set(key + timestamp, value);
  }

  get(key: string, timestamp: number): string {
    const times = this.times.get(key) ?? [];
    let lo = 0;
    let hi = times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((times[mid] as number) <= timestamp) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? '' : (this.values.get(key + (times[lo - 1] as number)) ?? '');
  }
}
