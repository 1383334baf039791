// Returns math.huge from the script for a request that can never fit. Redis converts a Lua number in
// a reply to a 64-bit integer, and infinity comes back as -2^63: retryAt is a time long past.
import type { RedisClient } from '../../../problems/redis-client.ts';
import type { RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'cost-over-capacity' };

const DEADLINE_MS = 900;

const SCRIPT = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local slack = math.min(1e-5 * rate, 1e-7)
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local level = capacity
local state = redis.call('HMGET', KEYS[1], 'tokens', 'last')
if state[1] then
  local tokens = tonumber(state[1])
  local last = tonumber(state[2])
  if last > now then now = last end
  level = math.min(capacity, tokens + (now - last) * rate / 1000)
end
local function ms_until(from, target)
  local short = target - from - slack
  if short <= 0 then return 0 end
  return math.ceil(short * 1000 / rate)
end
local allowed = cost <= capacity and level >= cost - slack
local after = level
if allowed then
  after = math.max(0, level - cost)
  redis.call('HSET', KEYS[1], 'tokens', after, 'last', now)
  redis.call('PEXPIRE', KEYS[1], math.max(1, ms_until(after, capacity)))
end
local retry
if allowed then retry = now
elseif cost > capacity then retry = math.huge
else retry = now + ms_until(level, cost) end
return { allowed and 1 or 0, math.floor(after + slack), now + ms_until(after, capacity), retry }
`;

function checkCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`bad ${name}: ${value}`);
}

function isNoScript(error: unknown): boolean {
  return String((error as { message?: unknown } | null)?.message ?? error).startsWith('NOSCRIPT');
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
  private sha: Promise<string> | undefined;
  private readonly args: string[];

  constructor(
    private readonly redis: RedisClient,
    capacity: number,
    refillPerSecond: number,
  ) {
    checkCount('capacity', capacity);
    if (!Number.isFinite(refillPerSecond) || refillPerSecond <= 0) throw new RangeError('bad rate');
    this.args = [String(capacity), String(refillPerSecond)];
  }

  async allow(key: string, cost: number = 1): Promise<RateLimitResult> {
    checkCount('cost', cost);
    const reply = await withDeadline(this.run(key, [...this.args, String(cost)]), DEADLINE_MS);
    const [allowed, remaining, resetAt, retryAt] = reply as [number, number, number, number];
    return {
      allowed: allowed === 1,
      remaining,
      resetAt,
      retryAt,
    };
  }

  private async run(key: string, args: string[]): Promise<unknown> {
    const options = { keys: [key], arguments: args };
    let sha = this.sha;
    if (sha === undefined) {
      const loading = this.redis.scriptLoad(SCRIPT);
      this.sha = sha = loading;
      loading.catch(() => {
        if (this.sha === loading) this.sha = undefined;
      });
    }
    try {
      return await this.redis.evalSha(await sha, options);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return await this.redis.eval(SCRIPT, options);
    }
  }
}
