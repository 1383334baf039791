// Counts the request that starts right now as taking a place too, so capacity is every request
// not yet finished: a new key gets capacity requests at one instant, not capacity + 1.
import type { Clock, RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

export type QueueResult = RateLimitResult & { startAt: number };

export const expectation = { verdict: 'wrong-answer', trap: 'queue-full' };

interface Chain {
  anchor: number;
  count: number;
}

export class LeakyBucketQueue {
  private mark = -Infinity;
  private readonly chains = new Map<string, Chain>();

  constructor(
    private readonly capacity: number,
    private readonly rate: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(capacity) || capacity <= 0) throw new RangeError('bad capacity');
    if (!Number.isFinite(rate) || rate <= 0) throw new RangeError('bad leakPerSecond');
  }

  submit(key: string): QueueResult {
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    let chain = this.chains.get(key);
    if (chain === undefined || this.at(chain, chain.count) <= now) {
      chain = { anchor: now, count: 1 };
      this.chains.set(key, chain);
      return {
        allowed: true,
        remaining: this.capacity - 1,
        resetAt: Math.ceil(this.at(chain, 1)),
        retryAt: now,
        startAt: now,
      };
    }
    const startAt = this.at(chain, chain.count);
    const ahead = this.at(chain, chain.count - this.capacity + 1);
    if (ahead > now) {
      return {
        allowed: false,
        remaining: 0,
        resetAt: Math.ceil(startAt),
        retryAt: Math.ceil(ahead),
        startAt,
      };
    }
    chain.count += 1;
    let waiting = 0;
    for (let j = chain.count - 1; j >= 0 && this.at(chain, j) > now; j--) waiting += 1;
    return {
      allowed: true,
      remaining: this.capacity - waiting - 1,
      resetAt: Math.ceil(this.at(chain, chain.count)),
      retryAt: now,
      startAt,
    };
  }

  private at(chain: Chain, j: number): number {
    return chain.anchor + (j * 1000) / this.rate;
  }
}
