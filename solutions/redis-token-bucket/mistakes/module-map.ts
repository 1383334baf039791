// Keeps every bucket in a Map at module level and asks Redis only for the time. In one process all
// instances would share the Map and the answers come out right; behind a load balancer each API
// server has a Map of its own, and the judge runs each simulated server from its own copy of the
// module, as production does: fifty servers then let fifty requests through a bucket of ten.
import type { RedisClient } from '../../../problems/redis-client.ts';
import type { RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'exact-under-concurrency' };

const buckets = new Map<string, { tokens: number; last: number }>();

function checkCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`bad ${name}: ${value}`);
}

export class RedisTokenBucket {
  private readonly slack: number;

  constructor(
    private readonly redis: RedisClient,
    private readonly capacity: number,
    private readonly rate: number,
  ) {
    checkCount('capacity', capacity);
    if (!Number.isFinite(rate) || rate <= 0) throw new RangeError('bad rate');
    this.slack = Math.min(1e-5 * rate, 1e-7);
  }

  private msUntil(from: number, target: number): number {
    const short = target - from - this.slack;
    return short <= 0 ? 0 : Math.ceil((short * 1000) / this.rate);
  }

  async allow(key: string, cost: number = 1): Promise<RateLimitResult> {
    checkCount('cost', cost);
    const [seconds, micros] = await this.redis.time();
    let now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    const id = `${this.capacity}/${this.rate}/${key}`;
    const state = buckets.get(id);
    let level = this.capacity;
    if (state !== undefined) {
      now = Math.max(now, state.last);
      level = Math.min(this.capacity, state.tokens + ((now - state.last) * this.rate) / 1000);
    }
    const allowed = cost <= this.capacity && level >= cost - this.slack;
    const after = allowed ? Math.max(0, level - cost) : level;
    if (allowed) buckets.set(id, { tokens: after, last: now });
    return {
      allowed,
      remaining: Math.floor(after + this.slack),
      resetAt: now + this.msUntil(after, this.capacity),
      retryAt: allowed ? now : cost > this.capacity ? Infinity : now + this.msUntil(level, cost),
    };
  }
}
