// expect: compile-error
// expect-message: error TS2322: Type 'string' is not assignable to type 'number'.
// Runs, and would count right, but LeetCode's tsc refuses it: the answer is declared a number and
// a string is returned. Type errors are compile errors here too.

export class HitCounter {
  private readonly times: number[] = [];

  hit(timestamp: number): void {
    this.times.push(timestamp);
  }

  getHits(timestamp: number): number {
    return this.times.filter((t) => t > timestamp - 300).length.toString();
  }
}
