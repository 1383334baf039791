// expect: accepted
// expect-follow-ups: passed
// Written from the statement alone: a hash { level, at } per key, one script run by EVALSHA (loaded
// once per instance, EVAL again on NOSCRIPT), and the key's expiry set as an absolute time with
// PEXPIREAT, from the same TIME the answer uses: the moment the bucket is full again.
import type { RedisClient } from '../../../problems/redis-client.ts';
import type { RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

const SCRIPT = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local slack = math.min(1e-7, rate * 1e-5)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local level = capacity
local saved = redis.call('HMGET', KEYS[1], 'level', 'at')
if saved[1] then
  local at = tonumber(saved[2])
  if at > now then now = at end
  level = math.min(capacity, tonumber(saved[1]) + (now - at) * rate / 1000)
end
local function wait(from, want)
  local missing = want - from - slack
  if missing <= 0 then return 0 end
  return math.ceil(missing * 1000 / rate)
end
local ok = cost <= capacity and level + slack >= cost
local left = level
if ok then
  left = math.max(0, level - cost)
  local full = now + wait(left, capacity)
  redis.call('HSET', KEYS[1], 'level', left, 'at', now)
  redis.call('PEXPIREAT', KEYS[1], math.max(full, now + 1))
end
local retry = now
if not ok then
  if cost > capacity then retry = -1 else retry = now + wait(level, cost) end
end
return { ok and 1 or 0, math.floor(left + slack), now + wait(left, capacity), retry }
`;

const TIMEOUT_MS = 800;

export class RedisTokenBucket {
  private sha: Promise<string> | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly capacity: number,
    private readonly refillPerSecond: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`capacity must be a positive whole number: ${capacity}`);
    }
    if (!Number.isFinite(refillPerSecond) || refillPerSecond <= 0) {
      throw new RangeError(`refillPerSecond must be a positive finite number: ${refillPerSecond}`);
    }
  }

  async allow(key: string, cost: number = 1): Promise<RateLimitResult> {
    if (!Number.isInteger(cost) || cost < 1) {
      throw new RangeError(`cost must be a positive whole number: ${cost}`);
    }
    const args = [String(this.capacity), String(this.refillPerSecond), String(cost)];
    const reply = (await this.inTime(this.run(key, args))) as number[];
    const [allowed, remaining, resetAt, retryAt] = reply.map(Number) as [
      number,
      number,
      number,
      number,
    ];
    return {
      allowed: allowed === 1,
      remaining,
      resetAt,
      retryAt: retryAt === -1 ? Infinity : retryAt,
    };
  }

  private async run(key: string, args: string[]): Promise<unknown> {
    // A load that failed (Redis restarting) is forgotten, so the next call loads again.
    this.sha ??= this.redis.scriptLoad(SCRIPT).catch((error: unknown) => {
      this.sha = undefined;
      throw error;
    });
    const sha = await this.sha;
    try {
      return await this.redis.evalSha(sha, { keys: [key], arguments: args });
    } catch (error) {
      if (!String((error as Error | null)?.message).startsWith('NOSCRIPT')) throw error;
      return this.redis.eval(SCRIPT, { keys: [key], arguments: args });
    }
  }

  private inTime<T>(work: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Redis gave no answer within ${TIMEOUT_MS} ms`)),
        TIMEOUT_MS,
      );
    });
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  }
}
