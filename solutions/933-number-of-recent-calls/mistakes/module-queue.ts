// Keeps the queue at module level, so every counter shares one history.
export const expectation = { verdict: 'wrong-answer', trap: 'instance-isolation' };

const times: number[] = [];

export class RecentCounter {
  constructor(private readonly window: number = 3000) {}

  ping(t: number): number {
    times.push(t);
    while (times.length > 0 && (times[0] as number) < t - this.window) times.shift();
    return times.length;
  }
}
