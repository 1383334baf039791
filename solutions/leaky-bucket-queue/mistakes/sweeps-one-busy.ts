// Sweeps drained keys as the reference does, a little per call, but stops at the first busy key it
// passes instead of the second. A call can add a key, so when every call brings a new key the sweep
// only ever passes the key added just before it: it never gets back round to the keys that drained
// long ago, and they stay for as long as the new keys keep coming.
import type { Clock, RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

export type QueueResult = RateLimitResult & { startAt: number };

export const expectation = { verdict: 'accepted', trap: 'idle-eviction' };

interface Chain {
  anchor: number;
  count: number;
}

export class LeakyBucketQueue {
  private mark = -Infinity;
  private readonly chains = new Map<string, Chain>();
  private hand: MapIterator<[string, Chain]> = this.chains.entries();

  constructor(
    private readonly capacity: number,
    private readonly leakPerSecond: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(capacity) || capacity <= 0) {
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    }
    if (!Number.isFinite(leakPerSecond) || leakPerSecond <= 0) {
      throw new RangeError(`leakPerSecond must be a positive finite number, got ${leakPerSecond}`);
    }
  }

  submit(key: string): QueueResult {
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    this.sweep(now);
    const capacity = this.capacity;
    const chain = this.chains.get(key);
    if (chain === undefined || this.startOf(chain, chain.count) <= now) {
      if (chain === undefined) this.chains.set(key, { anchor: now, count: 1 });
      else {
        chain.anchor = now;
        chain.count = 1;
      }
      return {
        allowed: true,
        remaining: capacity,
        resetAt: Math.ceil(now + 1000 / this.leakPerSecond),
        retryAt: now,
        startAt: now,
      };
    }
    const startAt = this.startOf(chain, chain.count);
    const ahead = this.startOf(chain, chain.count - capacity);
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
    return {
      allowed: true,
      remaining: capacity - this.waiting(chain, now),
      resetAt: Math.ceil(this.startOf(chain, chain.count)),
      retryAt: now,
      startAt,
    };
  }

  private startOf(chain: Chain, j: number): number {
    return chain.anchor + (j * 1000) / this.leakPerSecond;
  }

  private waiting(chain: Chain, now: number): number {
    let started = 0;
    while (started < chain.count && this.startOf(chain, started) <= now) started += 1;
    return chain.count - started;
  }

  /** The mistake: one busy key passed per call, when a call may also add one. */
  private sweep(now: number): void {
    for (;;) {
      const step = this.hand.next();
      if (step.done === true) {
        this.hand = this.chains.entries();
        return;
      }
      const [key, chain] = step.value;
      if (this.startOf(chain, chain.count) <= now) this.chains.delete(key);
      else return;
    }
  }
}
