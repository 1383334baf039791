// Reference: the token bucket of `token-bucket-limiter`, kept in Redis so that
// every API server behind a load balancer shares one bucket per key. Same
// answers, same rounding, same slack; what changes is where the state lives and
// who owns the clock.
//
// Why one Lua script. Deciding is a read-modify-write: read the bucket, work
// out its level, write it back less the cost. Done as separate commands from
// the app (read, compute, write), two servers can both read a full bucket
// before either writes, and both admit: under load the limit is whatever the
// race allows. Redis runs a script to the end before it serves any other
// command, so the read, the decision and the write in one script are atomic,
// with no lock and one round trip.
//
// Why Redis's TIME. Ten app servers have ten clocks, seconds apart after a bad
// NTP day. A bucket written with one server's "now" and read with another's
// refills by the difference: tokens from nowhere, or taken away. Inside the
// script, TIME is the one clock every caller shares. Scripts may call TIME and
// then write since Redis 5 replicates a script's effects, not the script.
//
// Why a TTL on every write. A full bucket answers like no bucket, so the key
// may go once the bucket is full again, and it must: a limiter that meets a
// million API tokens cannot keep a million keys. No sweeper is needed: each
// allowed request sets the key to expire exactly when the bucket is full again
// (resetAt), in the same script as the write, so no key is ever left without
// one. A denied request writes nothing at all, not even a TTL.
//
// Why EVALSHA, with EVAL as the fallback. Sending the script's text on every
// call costs bandwidth and a parse; EVALSHA sends its SHA1 instead. The
// learner's realm cannot import node:crypto, so the SHA comes from SCRIPT LOAD,
// once per instance. The server's script cache is not durable: a restart, a
// failover to a replica or SCRIPT FLUSH empties it, and EVALSHA then answers
// NOSCRIPT without running anything. So NOSCRIPT is retried once with EVAL
// (which runs the script and puts it back in the cache): the request counts
// exactly once. This is what node-redis itself does for the scripts given to
// createClient({ scripts }), which a client handed to us cannot have. Errors
// are recognised by their message, not by class: the client may come from
// another realm.
//
// Why a deadline. With its default options the client queues commands while it
// reconnects and gives up on a queued one only after 5 s; a command already
// written to a server that froze waits forever. A limiter sits in front of
// every request, so it sets its own deadline and rejects. Rejecting is failing
// closed: the caller refuses the request (or answers 503) instead of letting it
// through unlimited. Failing open is a choice the caller can still make by
// catching the error; a limiter that quietly answered "allowed" would take that
// choice away, and would switch every limit off at the moment an attacker (or
// an outage) takes Redis down. A command that was sent before the deadline may
// still run later and spend quota; that errs on the safe side, and it is why
// the call is never retried after a timeout (a retry would count twice).
//
// Numbers across the Lua boundary. Redis turns a Lua number in a reply into an
// integer by cutting off its fraction (0.75 s comes back as 0), and math.huge
// comes back as -2^63. So the script works out every answer in whole
// milliseconds (ceil, as the single-process kata does) and returns only
// integers, with -1 standing for "never" (retryAt Infinity). Numbers written
// with HSET keep 17 significant digits, so the fractional token level survives
// a round trip exactly; Lua's own tostring() keeps only 14, which is why the
// script never formats a number itself.
//
// Cluster. The bucket's key is the only key the script touches, and it is
// passed in KEYS, so a cluster can route the call to the node that owns the
// key's slot.
//
// Traps it avoids: one script (exact-under-concurrency), TIME (server-time),
// PEXPIRE in the same script as every write (ttl-on-every-key,
// idle-keys-vanish), NOSCRIPT → EVAL once (noscript-recovery), whole
// milliseconds and -1 (no-float-truncation, cost-over-capacity), nothing
// written on a refusal (denied-writes-nothing), settings kept per instance
// (instance-isolation), the single-process arithmetic (same-semantics),
// RangeError before any command (bad-input), the key in KEYS (cluster-safe)
// and a deadline (redis-down).
import type { RedisClient } from '../../problems/redis-client.ts';
import type { RateLimitResult } from '../../problems/rate-limiter-contract.ts';

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
