// expect: accepted
// Keeps every ping and finds the oldest one still in range by binary search.

export class RecentCounter {
  private readonly times: number[] = [];

  ping(t: number): number {
    this.times.push(t);
    let lo = 0;
    let hi = this.times.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.times[mid] as number) < t - 3000) lo = mid + 1;
      else hi = mid;
    }
    return this.times.length - lo;
  }
}
