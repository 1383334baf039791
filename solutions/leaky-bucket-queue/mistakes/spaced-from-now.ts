// Keeps the waiting requests' start times and gives a new request a start one interval per
// waiting request after now. That spaces the requests from the moment the new one arrives, not
// from the previous start: when the last start was a moment ago, or when the first waiting one is
// about to leave, the new start comes too early.
import type { Clock, RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

export type QueueResult = RateLimitResult & { startAt: number };

export const expectation = { verdict: 'wrong-answer', trap: 'spacing' };

export class LeakyBucketQueue {
  private mark = -Infinity;
  private readonly queues = new Map<string, number[]>();

  constructor(
    private readonly capacity: number,
    private readonly rate: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(capacity) || capacity <= 0) throw new RangeError('bad capacity');
    if (!Number.isFinite(rate) || rate <= 0) throw new RangeError('bad leakPerSecond');
  }

  submit(key: string): QueueResult {
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    const interval = 1000 / this.rate;
    const waiting = (this.queues.get(key) ?? []).filter((start) => start > now);
    this.queues.set(key, waiting);
    const startAt = now + waiting.length * interval;
    if (startAt > now && waiting.length >= this.capacity) {
      return {
        allowed: false,
        remaining: 0,
        resetAt: Math.ceil(startAt),
        retryAt: Math.ceil(waiting[0] as number),
        startAt,
      };
    }
    if (startAt > now) waiting.push(startAt);
    return {
      allowed: true,
      remaining: this.capacity - waiting.length,
      resetAt: Math.ceil(startAt + interval),
      retryAt: now,
      startAt,
    };
  }
}
