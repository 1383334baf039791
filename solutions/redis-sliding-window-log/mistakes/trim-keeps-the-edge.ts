// Trims with the bound one millisecond off: ZREMRANGEBYSCORE to `(now − window`, exclusive, keeps a
// unit that is exactly one window old, so the window is [now − W, now] instead of (now − W, now].
// Everywhere but at that one millisecond the answers are right; there, the unit that has just left
// is still counted, and a request that fits is refused or told one unit fewer remains.
import type { RedisClient } from '../../../problems/redis-client.ts';
import type { RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'remove-before-count' };

const DEADLINE_MS = 900;

// KEYS[1]: the log, a sorted set of accepted units scored by the millisecond of
// acceptance. ARGV: limit, windowMs, cost. Returns { allowed (1/0), remaining,
// resetAt, retryAt (-1: never) }.
const SCRIPT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
-- If Redis's clock steps back, the youngest unit is this key's high-water mark: a unit never
-- counts for longer, and new units never go in before old ones.
local youngest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if youngest[2] and tonumber(youngest[2]) > now then now = tonumber(youngest[2]) end

-- Trim, then count.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - window))
local used = redis.call('ZCARD', KEYS[1])

if used + cost <= limit then
  local n = redis.call('ZCOUNT', KEYS[1], now, now)
  -- ZADD in slices: Lua's unpack() cannot spread an unbounded number of arguments.
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
  -- The youngest unit is now's: the key answers like a new one exactly one window from now.
  redis.call('PEXPIRE', KEYS[1], window)
  return { 1, limit - used - cost, now + window, now }
end

local reset = now
if used > 0 then
  reset = tonumber(redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2]) + window
end
local retry = -1
if cost <= limit then
  -- Room for cost needs the k oldest units gone; the k-th oldest leaves last of them.
  local k = used - (limit - cost)
  retry = tonumber(redis.call('ZRANGE', KEYS[1], k - 1, k - 1, 'WITHSCORES')[2]) + window
end
return { 0, limit - used, reset, retry }
`;

function checkCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
}

function isNoScript(error: unknown): boolean {
  return String((error as { message?: unknown } | null)?.message ?? error).startsWith('NOSCRIPT');
}

/** `work`, or a rejection once `ms` have passed without an answer. */
async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: Redis did not answer within ${ms} ms; failing closed`)),
      ms,
    );
  });
  try {
    // race() subscribes to `work`, so its rejection after the deadline is
    // handled, not "unhandled".
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export class RedisSlidingWindowLog {
  /** SCRIPT LOAD's answer, shared by concurrent first calls; reset on error. */
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
    const reply = await withDeadline(
      this.run(key, [...this.args, String(cost)]),
      DEADLINE_MS,
      'RedisSlidingWindowLog',
    );
    const [allowed, remaining, resetAt, retryAt] = reply as [number, number, number, number];
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
      // A failed load (Redis down) must not stick: the next call loads again.
      loading.catch(() => {
        if (this.sha === loading) this.sha = undefined;
      });
    }
    try {
      return await this.redis.evalSha(await sha, options);
    } catch (error) {
      // NOSCRIPT: the cache was emptied and nothing ran. EVAL runs it once and
      // caches it again.
      if (!isNoScript(error)) throw error;
      return await this.redis.eval(SCRIPT, options);
    }
  }
}
