// expect: accepted
// expect-follow-ups: passed
// Written from the statement alone, with two round trips a call: TIME first (Redis's clock, read by
// the client), then one script that reads, decides and writes, given that time. The script takes
// the later of that time and the bucket's own last write, so a server whose TIME reply was overtaken
// by another's write never moves the bucket back. The key expires with EXPIRE in whole seconds,
// rounded up (the statement allows it: no later than a full refill plus a second).
import type { RedisClient } from '../../../problems/redis-client.ts';
import type { RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

const SCRIPT = `
local now = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local rate = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local tolerance = math.min(1e-7, rate * 1e-5)
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'ms')
local tokens = capacity
if bucket[1] then
  local ms = tonumber(bucket[2])
  if ms > now then now = ms end
  tokens = math.min(capacity, tonumber(bucket[1]) + (now - ms) * rate / 1000)
end
local function after_ms(from, to)
  local gap = to - from - tolerance
  if gap > 0 then return math.ceil(gap * 1000 / rate) end
  return 0
end
local allowed = 0
if cost <= capacity and tokens >= cost - tolerance then
  allowed = 1
  tokens = math.max(0, tokens - cost)
  redis.call('HSET', KEYS[1], 'tokens', tokens, 'ms', now)
  local seconds = math.ceil(after_ms(tokens, capacity) / 1000)
  redis.call('EXPIRE', KEYS[1], math.max(1, seconds))
end
local retry = now
if allowed == 0 then
  retry = -1
  if cost <= capacity then retry = now + after_ms(tokens, cost) end
end
return { allowed, math.floor(tokens + tolerance), now + after_ms(tokens, capacity), retry }
`;

const DEADLINE_MS = 800;

export class RedisTokenBucket {
  constructor(
    private readonly redis: RedisClient,
    private readonly capacity: number,
    private readonly refillPerSecond: number,
  ) {
    if (!Number.isSafeInteger(capacity) || capacity <= 0) throw new RangeError('bad capacity');
    if (!Number.isFinite(refillPerSecond) || refillPerSecond <= 0) {
      throw new RangeError('bad refillPerSecond');
    }
  }

  allow(key: string, cost = 1): Promise<RateLimitResult> {
    if (!Number.isSafeInteger(cost) || cost <= 0) {
      return Promise.reject(new RangeError('bad cost'));
    }
    // One deadline for both round trips together.
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer from Redis within ${DEADLINE_MS} ms: refused`)),
        DEADLINE_MS,
      );
      this.decide(key, cost).then(
        (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  private async decide(key: string, cost: number): Promise<RateLimitResult> {
    const [seconds, micros] = await this.redis.time();
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    const reply = (await this.redis.eval(SCRIPT, {
      keys: [key],
      arguments: [now, this.capacity, this.refillPerSecond, cost].map(String),
    })) as number[];
    const [allowed, remaining, resetAt, retryAt] = reply;
    return {
      allowed: allowed === 1,
      remaining: remaining!,
      resetAt: resetAt!,
      retryAt: retryAt === -1 ? Infinity : retryAt!,
    };
  }
}
