// Stores each value under its exact time and, for a get, tries t, t - 1, t - 2, … until a time
// matches: right, but a get far after a key's last set, or before its first, takes millions of
// steps.
export const expectation = { verdict: 'accepted', trap: 'scale' };

export class TimeMap {
  private readonly byTime = new Map<string, Map<number, string>>();

  set(key: string, value: string, timestamp: number): void {
    const values = this.byTime.get(key) ?? new Map<number, string>();
    values.set(timestamp, value);
    this.byTime.set(key, values);
  }

  get(key: string, timestamp: number): string {
    const values = this.byTime.get(key);
    if (values === undefined) return '';
    for (let t = timestamp; t >= 1; t--) {
      const value = values.get(t);
      if (value !== undefined) return value;
    }
    return '';
  }
}
