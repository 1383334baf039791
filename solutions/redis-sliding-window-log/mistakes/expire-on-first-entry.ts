// The INCR-then-EXPIRE shape: the expiry is set by a second command, and only when the script reports
// that the log was empty. Two calls are not atomic (a crash between them leaves a key without one),
// and later units do not push the expiry on: the key vanishes one window after its first unit, taking
// younger units with it, and the client gets their quota back early.
import type { RedisClient } from '../../../problems/redis-client.ts';
import type { RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'ttl-on-every-key' };

const DEADLINE_MS = 900;

const SCRIPT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local youngest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if youngest[2] and tonumber(youngest[2]) > now then now = tonumber(youngest[2]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local used = redis.call('ZCARD', KEYS[1])
if used + cost <= limit then
  local n = redis.call('ZCOUNT', KEYS[1], now, now)
  local i = 1
  while i <= cost do
    local args = {}
    local last = math.min(cost, i + 499)
    for j = i, last do
      args[#args + 1] = now
      args[#args + 1] = string.format('%d:%d', now, n + j)
    end
    redis.call('ZADD', KEYS[1], unpack(args))
    i = last + 1
  end
  return { 1, limit - used - cost, now + window, now, used }
end
local reset = now
if used > 0 then
  reset = tonumber(redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2]) + window
end
local retry = -1
if cost <= limit then
  local k = used - (limit - cost)
  retry = tonumber(redis.call('ZRANGE', KEYS[1], k - 1, k - 1, 'WITHSCORES')[2]) + window
end
return { 0, limit - used, reset, retry }
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

export class RedisSlidingWindowLog {
  private sha: Promise<string> | undefined;
  private readonly args: string[];

  constructor(
    private readonly redis: RedisClient,
    limit: number,
    windowMs: number,
  ) {
    checkCount('limit', limit);
    checkCount('windowMs', windowMs);
    this.args = [String(limit), String(windowMs)];
  }

  async allow(key: string, cost: number = 1): Promise<RateLimitResult> {
    checkCount('cost', cost);
    const reply = await withDeadline(this.run(key, [...this.args, String(cost)]), DEADLINE_MS);
    const [allowed, remaining, resetAt, retryAt, before] = reply as number[] as [
      number,
      number,
      number,
      number,
      number,
    ];
    // First units of a fresh log: the key lasts one window.
    if (allowed === 1 && before === 0) await this.redis.pExpire(key, resetAt - retryAt);
    return {
      allowed: allowed === 1,
      remaining,
      resetAt,
      retryAt: retryAt === -1 ? Infinity : retryAt,
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
