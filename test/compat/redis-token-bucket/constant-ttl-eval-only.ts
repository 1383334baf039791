// expect: accepted
// expect-follow-ups: passed
// Written from the statement alone: the bucket is one string, "level last", written with SET … PX
// and a constant TTL of one full refill from empty (the statement's rule allows up to a full refill
// plus a second). Every call sends the script whole with EVAL, so an emptied script cache changes
// nothing: no SHA to lose.
import type { RedisClient } from '../../../problems/redis-client.ts';
import type { RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

const SCRIPT = `
local capacity, rate, cost, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local eps = math.min(1e-7, rate / 100000)
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local tokens = capacity
local state = redis.call('GET', KEYS[1])
if state then
  local sep = string.find(state, ' ')
  local was, last = tonumber(string.sub(state, 1, sep - 1)), tonumber(string.sub(state, sep + 1))
  now = math.max(now, last)
  tokens = math.min(capacity, was + (now - last) * rate / 1000)
end
local function until_has(have, need)
  if need - have <= eps then return now end
  return now + math.ceil((need - have - eps) * 1000 / rate)
end
if cost > capacity then
  return { 0, math.floor(tokens + eps), until_has(tokens, capacity), -1 }
end
if tokens + eps < cost then
  return { 0, math.floor(tokens + eps), until_has(tokens, capacity), until_has(tokens, cost) }
end
tokens = math.max(0, tokens - cost)
redis.call('SET', KEYS[1], string.format('%.17g %d', tokens, now), 'PX', ttl)
return { 1, math.floor(tokens + eps), until_has(tokens, capacity), now }
`;

const GIVE_UP_MS = 750;

function positiveWhole(name: string, value: number): void {
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${name}: ${value}`);
}

export class RedisTokenBucket {
  private readonly fullRefillMs: number;

  constructor(
    private readonly redis: RedisClient,
    private readonly capacity: number,
    private readonly refillPerSecond: number,
  ) {
    positiveWhole('capacity', capacity);
    if (!(refillPerSecond > 0) || refillPerSecond === Infinity) {
      throw new RangeError(`refillPerSecond: ${refillPerSecond}`);
    }
    this.fullRefillMs = Math.ceil((capacity * 1000) / refillPerSecond);
  }

  async allow(key: string, cost = 1): Promise<RateLimitResult> {
    positiveWhole('cost', cost);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('Redis timed out: request refused')), GIVE_UP_MS);
    });
    const call = this.redis.eval(SCRIPT, {
      keys: [key],
      arguments: [`${this.capacity}`, `${this.refillPerSecond}`, `${cost}`, `${this.fullRefillMs}`],
    });
    try {
      const [allowed, remaining, resetAt, retryAt] = (await Promise.race([
        call,
        timeout,
      ])) as number[];
      return {
        allowed: allowed === 1,
        remaining: Number(remaining),
        resetAt: Number(resetAt),
        retryAt: retryAt === -1 ? Infinity : Number(retryAt),
      };
    } finally {
      clearTimeout(timer);
    }
  }
}
