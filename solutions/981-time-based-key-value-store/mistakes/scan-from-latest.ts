// Walks a key's history back from the latest entry to the first one at or before t: right, but a
// get about an early time walks almost the whole history.
export const expectation = { verdict: 'accepted', trap: 'scale' };

export class TimeMap {
  private readonly histories = new Map<string, Array<[number, string]>>();

  set(key: string, value: string, timestamp: number): void {
    const history = this.histories.get(key) ?? [];
    history.push([timestamp, value]);
    this.histories.set(key, history);
  }

  get(key: string, timestamp: number): string {
    const history = this.histories.get(key) ?? [];
    for (let i = history.length - 1; i >= 0; i--) {
      const [time, value] = history[i] as [number, string];
      if (time <= timestamp) return value;
    }
    return '';
  }
}
