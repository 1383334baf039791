// Write your TimeMap here. `npm run kata 981` judges this file on every save.
// A class pasted from LeetCode works as it is, as long as it is exported.

export class TimeMap {
  constructor() {}

  set(key: string, value: string, timestamp: number): void {
    throw new Error('Not implemented: TimeMap.set');
  }

  get(key: string, timestamp: number): string {
    throw new Error('Not implemented: TimeMap.get');
  }
}
