// Reads the bucket, decides in the app and writes it back: TIME, HMGET, then HSET and PEXPIRE in a
// MULTI. Every step is right, and the time is Redis's; but between the read and the write other
// servers read the same full bucket, and a burst from many connections is admitted many times over.
import type { RedisClient } from '../../../problems/redis-client.ts';
import type { RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'exact-under-concurrency' };

const DEADLINE_MS = 900;

function checkCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`bad ${name}: ${value}`);
}

async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export class RedisTokenBucket {
  private readonly capacity: number;
  private readonly rate: number;

  constructor(
    private readonly redis: RedisClient,
    capacity: number,
    refillPerSecond: number,
  ) {
    checkCount('capacity', capacity);
    if (!Number.isFinite(refillPerSecond) || refillPerSecond <= 0) throw new RangeError('bad rate');
    this.capacity = capacity;
    this.rate = refillPerSecond;
  }

  async allow(key: string, cost: number = 1): Promise<RateLimitResult> {
    checkCount('cost', cost);
    return withDeadline(this.decide(key, cost), DEADLINE_MS);
  }

  private async decide(key: string, cost: number): Promise<RateLimitResult> {
    const [seconds, micros] = await this.redis.time();
    let now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    const [tokens, last] = await this.redis.hmGet(key, ['tokens', 'last']);
    const capacity = this.capacity;
    const slack = Math.min(1e-5 * this.rate, 1e-7);
    let level = capacity;
    if (tokens !== null && tokens !== undefined) {
      now = Math.max(now, Number(last));
      level = Math.min(capacity, Number(tokens) + ((now - Number(last)) * this.rate) / 1000);
    }
    const msUntil = (from: number, target: number): number => {
      const short = target - from - slack;
      return short <= 0 ? 0 : Math.ceil((short * 1000) / this.rate);
    };
    const allowed = cost <= capacity && level >= cost - slack;
    const after = allowed ? Math.max(0, level - cost) : level;
    if (allowed) {
      await this.redis
        .multi()
        .hSet(key, { tokens: String(after), last: String(now) })
        .pExpire(key, Math.max(1, msUntil(after, capacity)))
        .exec();
    }
    return {
      allowed,
      remaining: Math.floor(after + slack),
      resetAt: now + msUntil(after, capacity),
      retryAt: allowed ? now : cost > capacity ? Infinity : now + msUntil(level, cost),
    };
  }
}
