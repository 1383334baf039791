// expect: runtime-error prototype-keys
// expect-message: Cannot read properties of undefined
// The popular shape with a plain `{}` as the map. The key "constructor" is within LeetCode's
// alphabet and finds Object itself, which has no push: LeetCode's own tests do not try it.

export class TimeMap {
  private readonly store: Record<string, [number, string][]> = {};

  set(key: string, value: string, timestamp: number): void {
    if (!this.store[key]) this.store[key] = [];
    this.store[key].push([timestamp, value]);
  }

  get(key: string, timestamp: number): string {
    const entries = this.store[key];
    if (!entries) return '';
    let lo = 0;
    let hi = entries.length - 1;
    let answer = '';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (entries[mid]![0] <= timestamp) {
        answer = entries[mid]![1];
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return answer;
  }
}
