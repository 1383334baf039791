// expect: accepted
// expect-follow-ups: passed
// Written from the statement alone, with two round trips a call: Redis's TIME read by the client,
// then one script (sent whole, EVAL) that trims, counts and adds, given that time. The script never
// goes back before the youngest unit already logged, so a TIME reply overtaken by another server's
// write is raised to it. Members are "ms-n", n counting the units logged in that millisecond
// (ZCOUNT of that one score). The key expires with EXPIRE in whole seconds, the window rounded up:
// the statement allows up to the window plus a second.
import type { RedisClient } from '../../../problems/redis-client.ts';
import type { RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

const SCRIPT = `
local key = KEYS[1]
local now, limit, window, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local top = redis.call('ZREVRANGE', key, 0, 0, 'WITHSCORES')
if #top > 0 and tonumber(top[2]) > now then now = tonumber(top[2]) end
redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. (now - window + 1))
local count = redis.call('ZCARD', key)
local reset = now
if #top > 0 and tonumber(top[2]) + window > now then reset = tonumber(top[2]) + window end
if cost > limit then return { 0, limit - count, reset, -1 } end
if count + cost > limit then
  local rank = count + cost - limit - 1
  local oldest = redis.call('ZRANGE', key, rank, rank, 'WITHSCORES')
  return { 0, limit - count, reset, tonumber(oldest[2]) + window }
end
local same = redis.call('ZCOUNT', key, now, now)
for n = same + 1, same + cost do redis.call('ZADD', key, now, now .. '-' .. n) end
redis.call('EXPIRE', key, math.ceil(window / 1000))
return { 1, limit - count - cost, now + window, now }
`;

const DEADLINE_MS = 800;

const whole = (value: number): boolean => Number.isInteger(value) && value > 0;

export class RedisSlidingWindowLog {
  constructor(
    private readonly redis: RedisClient,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {
    if (!whole(limit) || !whole(windowMs)) {
      throw new RangeError(`limit and windowMs must be positive integers: ${limit}, ${windowMs}`);
    }
  }

  async allow(key: string, cost = 1): Promise<RateLimitResult> {
    if (!whole(cost)) throw new RangeError(`cost must be a positive integer: ${cost}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        this.decide(key, cost),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('Redis is not answering')), DEADLINE_MS);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async decide(key: string, cost: number): Promise<RateLimitResult> {
    const [s, us] = await this.redis.time();
    const now = Number(s) * 1000 + Math.floor(Number(us) / 1000);
    const [allowed, remaining, resetAt, retryAt] = (await this.redis.eval(SCRIPT, {
      keys: [key],
      arguments: [now, this.limit, this.windowMs, cost].map(String),
    })) as [number, number, number, number];
    return {
      allowed: allowed === 1,
      remaining,
      resetAt,
      retryAt: retryAt < 0 ? Infinity : retryAt,
    };
  }
}
