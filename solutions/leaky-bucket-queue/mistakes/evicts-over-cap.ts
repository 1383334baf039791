// Bounds memory with a cap: past KEY_CAP keys, the least recently used one is dropped, whatever
// its state. A key with requests still waiting can be dropped that way, and then answers like a
// new key: its next request starts at once.
import type { Clock, RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

export type QueueResult = RateLimitResult & { startAt: number };

export const expectation = { verdict: 'accepted', trap: 'idle-eviction' };

const KEY_CAP = 1000;

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
      this.chains.delete(key);
      this.chains.set(key, chain);
      if (this.chains.size > KEY_CAP) {
        this.chains.delete(this.chains.keys().next().value as string);
      }
      return {
        allowed: true,
        remaining: this.capacity,
        resetAt: Math.ceil(this.at(chain, 1)),
        retryAt: now,
        startAt: now,
      };
    }
    const startAt = this.at(chain, chain.count);
    const ahead = this.at(chain, chain.count - this.capacity);
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
    this.chains.delete(key);
    this.chains.set(key, chain);
    let waiting = 0;
    for (let j = chain.count - 1; j >= 0 && this.at(chain, j) > now; j--) waiting += 1;
    return {
      allowed: true,
      remaining: this.capacity - waiting,
      resetAt: Math.ceil(this.at(chain, chain.count)),
      retryAt: now,
      startAt,
    };
  }

  private at(chain: Chain, j: number): number {
    return chain.anchor + (j * 1000) / this.rate;
  }
}
