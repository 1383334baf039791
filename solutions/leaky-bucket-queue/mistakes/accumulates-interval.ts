// Keeps the next start per key and adds the interval to it for every accepted request, comparing
// with a small tolerance so that 1000 / 3 added three times still counts as 1000. Each addition
// rounds, though, and far from zero it rounds the same way every time: over a long busy stretch
// the starts drift away from exact, by more than any tolerance a client can rely on.
import type { Clock, RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

export type QueueResult = RateLimitResult & { startAt: number };

export const expectation = { verdict: 'accepted', trap: 'fractional-rate' };

/** Differences below this are rounding, not time. */
const EPSILON = 1e-7;

interface Line {
  /** When the last accepted request starts. */
  last: number;
  /** The starts still ahead, oldest first. */
  waiting: number[];
}

export class LeakyBucketQueue {
  private mark = -Infinity;
  private readonly lines = new Map<string, Line>();

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
    const up = (time: number): number => Math.ceil(time - EPSILON);
    const line = this.lines.get(key);
    if (line === undefined || line.last + interval <= now + EPSILON) {
      this.lines.set(key, { last: now, waiting: [] });
      return {
        allowed: true,
        remaining: this.capacity,
        resetAt: up(now + interval),
        retryAt: now,
        startAt: now,
      };
    }
    while (line.waiting.length > 0 && (line.waiting[0] as number) <= now + EPSILON) {
      line.waiting.shift();
    }
    const startAt = line.last + interval;
    if (line.waiting.length >= this.capacity) {
      return {
        allowed: false,
        remaining: 0,
        resetAt: up(startAt),
        retryAt: up(line.waiting[0] as number),
        startAt,
      };
    }
    line.last = startAt;
    line.waiting.push(startAt);
    return {
      allowed: true,
      remaining: this.capacity - line.waiting.length,
      resetAt: up(startAt + interval),
      retryAt: now,
      startAt,
    };
  }
}
