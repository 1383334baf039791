// expect: accepted
// expect-follow-ups: passed
// Written from the statement alone: one sorted set per key, trimmed, counted and added in one script
// run by EVALSHA (EVAL again on NOSCRIPT). Each unit's member is its millisecond and its place in the
// log ("ms:n", n = units in the window before it, plus one): within one millisecond the count only
// grows, so no two units share a member. The key expires at an absolute time, PEXPIREAT, when the
// unit just added leaves the window.
import type { RedisClient } from '../../../problems/redis-client.ts';
import type { RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

const SCRIPT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local used = redis.call('ZCARD', KEYS[1])
local function youngest_leaves()
  local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  if #last == 0 then return now end
  return tonumber(last[2]) + window
end
if cost > limit then
  return { 0, limit - used, youngest_leaves(), -1 }
end
if used + cost > limit then
  local nth = used - (limit - cost)
  local oldest = redis.call('ZRANGE', KEYS[1], nth - 1, nth - 1, 'WITHSCORES')
  return { 0, limit - used, youngest_leaves(), tonumber(oldest[2]) + window }
end
for i = 1, cost do
  redis.call('ZADD', KEYS[1], now, now .. ':' .. (used + i))
end
redis.call('PEXPIREAT', KEYS[1], now + window)
return { 1, limit - used - cost, now + window, now }
`;

const WAIT_AT_MOST_MS = 800;

export class RedisSlidingWindowLog {
  private loaded: Promise<string> | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {
    for (const [name, value] of [
      ['limit', limit],
      ['windowMs', windowMs],
    ] as const) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} is ${value}`);
    }
  }

  async allow(key: string, cost = 1): Promise<RateLimitResult> {
    if (!Number.isInteger(cost) || cost < 1) throw new RangeError(`cost is ${cost}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Redis did not answer in ${WAIT_AT_MOST_MS} ms`)),
        WAIT_AT_MOST_MS,
      );
    });
    try {
      const reply = (await Promise.race([this.script(key, cost), expired])) as number[];
      const [allowed, remaining, resetAt, retryAt] = reply as [number, number, number, number];
      return {
        allowed: allowed === 1,
        remaining,
        resetAt,
        retryAt: retryAt < 0 ? Infinity : retryAt,
      };
    } finally {
      clearTimeout(timer);
    }
  }

  private async script(key: string, cost: number): Promise<unknown> {
    const options = { keys: [key], arguments: [this.limit, this.windowMs, cost].map(String) };
    if (this.loaded === undefined) {
      const loading = this.redis.scriptLoad(SCRIPT);
      this.loaded = loading;
      loading.catch(() => {
        if (this.loaded === loading) this.loaded = undefined;
      });
    }
    const sha = await this.loaded;
    return this.redis.evalSha(sha, options).catch((error: unknown) => {
      if (!/^NOSCRIPT/.test(String((error as { message?: unknown })?.message))) throw error;
      return this.redis.eval(SCRIPT, options);
    });
  }
}
