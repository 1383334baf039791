// Loads its script once and keeps the promise of that load for good, even when the load failed. A
// Redis that is restarting answers LOADING to everything, SCRIPT LOAD included; that one call fails,
// as it should, but every call after it awaits the same rejected promise and fails too, long after
// Redis is back, until the process restarts. The right answers in every other respect.
import type { RedisClient } from '../../../problems/redis-client.ts';
import type { RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'restart-recovery' };

/**
 * Longest wait for Redis before failing closed. A healthy local Redis answers
 * in well under a millisecond; 900 ms leaves room for a machine so busy that
 * Redis gets no CPU for a while, and still answers "down" within a second.
 */
const DEADLINE_MS = 900;

// KEYS[1]: the bucket, a hash { tokens, last }; missing means full. ARGV:
// capacity, refillPerSecond, cost (as decimal strings: tonumber gives the same
// doubles as JavaScript). Returns { allowed (1/0), remaining, resetAt, retryAt
// (-1: never) }, all whole numbers. The arithmetic is the single-process
// reference's, in the same order, so the two agree exactly.
const SCRIPT = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
-- Decimal rates carry rounding errors: a level short of a target by what 10 µs of refill adds (at
-- most 1e-7 tokens) counts as there, as in token-bucket-limiter (see its comment for why).
local slack = math.min(1e-5 * rate, 1e-7)

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

local level = capacity
local state = redis.call('HMGET', KEYS[1], 'tokens', 'last')
if state[1] then
  local tokens = tonumber(state[1])
  local last = tonumber(state[2])
  -- If Redis's clock steps back, the bucket's last write is this key's high-water mark.
  if last > now then now = last end
  level = math.min(capacity, tokens + (now - last) * rate / 1000)
end

-- Whole milliseconds until a bucket at level \`from\` holds \`target\` tokens, rounded up.
local function ms_until(from, target)
  local short = target - from - slack
  if short <= 0 then return 0 end
  return math.ceil(short * 1000 / rate)
end

-- The capacity test is exact and comes first: the slack must not let a cost above it through.
local allowed = cost <= capacity and level >= cost - slack
local after = level
if allowed then
  after = math.max(0, level - cost)
  redis.call('HSET', KEYS[1], 'tokens', after, 'last', now)
  -- Gone exactly when full again, when it would answer like a key never seen.
  redis.call('PEXPIRE', KEYS[1], math.max(1, ms_until(after, capacity)))
end

local retry
if allowed then retry = now
elseif cost > capacity then retry = -1
else retry = now + ms_until(level, cost) end
return { allowed and 1 or 0, math.floor(after + slack), now + ms_until(after, capacity), retry }
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

export class RedisTokenBucket {
  /** SCRIPT LOAD's answer, shared by concurrent first calls; reset on error. */
  private sha: Promise<string> | undefined;
  private readonly args: string[];

  constructor(
    private readonly redis: RedisClient,
    capacity: number,
    refillPerSecond: number,
  ) {
    checkCount('capacity', capacity);
    if (!Number.isFinite(refillPerSecond) || refillPerSecond <= 0) {
      throw new RangeError(`refillPerSecond must be a finite number > 0, got ${refillPerSecond}`);
    }
    // String() of a double round-trips exactly through Lua's tonumber.
    this.args = [String(capacity), String(refillPerSecond)];
  }

  async allow(key: string, cost: number = 1): Promise<RateLimitResult> {
    checkCount('cost', cost);
    const reply = await withDeadline(
      this.run(key, [...this.args, String(cost)]),
      DEADLINE_MS,
      'RedisTokenBucket',
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
      // Only so that a failed load is not an unhandled rejection: it stays cached.
      loading.catch(() => {});
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
