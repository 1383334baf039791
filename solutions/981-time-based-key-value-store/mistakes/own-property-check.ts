// A plain `{}` guarded by Object.hasOwn: safe for "constructor", but assigning to "__proto__" sets
// the object's prototype instead of adding a key, so that key is never found again.
export const expectation = { verdict: 'accepted', trap: 'proto-key' };

export class TimeMap {
  private readonly histories: Record<string, Array<[number, string]>> = {};

  set(key: string, value: string, timestamp: number): void {
    if (!Object.hasOwn(this.histories, key)) this.histories[key] = [];
    (this.histories[key] as Array<[number, string]>).push([timestamp, value]);
  }

  get(key: string, timestamp: number): string {
    if (!Object.hasOwn(this.histories, key)) return '';
    const history = this.histories[key] as Array<[number, string]>;
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
