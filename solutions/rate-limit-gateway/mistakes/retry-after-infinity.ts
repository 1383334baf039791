// Writes the latest retry time even when it is Infinity: `Retry-After: Infinity` is no number of
// seconds, and promises a wait where none helps.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'never-retry' };

export interface Policy {
  name: string;
  limiter: RateLimiter;
  quota: number;
  windowSeconds: number;
}

export interface Tier {
  global: Policy[];
  endpoints?: Record<string, Policy[]>;
}

export interface Decision {
  allowed: boolean;
  status: 200 | 429;
  headers: Record<string, string>;
  violated: string[];
}

/** A structured-field string: quoted, with `\` and `"` escaped. */
function quoted(name: string): string {
  return `"${name.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** Whole seconds from now until `at`, rounded up; 0 for a time already reached. */
function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

export class RateLimitGateway {
  /** Clients moved out of the default tier; everyone else is in it. */
  private readonly assigned = new Map<string, string>();

  constructor(
    private readonly tiers: Record<string, Tier>,
    private readonly defaultTier: string,
    private readonly clock: Clock,
  ) {
    if (!Object.hasOwn(tiers, defaultTier)) {
      throw new RangeError(`unknown default tier ${defaultTier}`);
    }
  }

  setTier(clientId: string, tier: string): void {
    if (!Object.hasOwn(this.tiers, tier)) throw new RangeError(`unknown tier ${tier}`);
    this.assigned.set(clientId, tier);
  }

  check(clientId: string, endpoint: string, cost: number = 1): Decision {
    if (!Number.isInteger(cost) || cost <= 0) {
      throw new RangeError(`cost must be a positive integer, got ${cost}`);
    }
    const tier = this.tiers[this.assigned.get(clientId) ?? this.defaultTier] as Tier;
    const endpoints = tier.endpoints;
    const policies =
      endpoints !== undefined && Object.hasOwn(endpoints, endpoint)
        ? [...(endpoints[endpoint] as Policy[]), ...tier.global]
        : tier.global;
    if (policies.length === 0) return { allowed: true, status: 200, headers: {}, violated: [] };

    const now = this.clock.now();
    const peeks = policies.map((p) => p.limiter.peek(clientId, cost));
    const violated: string[] = [];
    let latestRetry = -Infinity;
    peeks.forEach((answer, i) => {
      if (answer.allowed) return;
      violated.push((policies[i] as Policy).name);
      latestRetry = Math.max(latestRetry, answer.retryAt);
    });
    const allowed = violated.length === 0;
    const answers: RateLimitResult[] = allowed
      ? policies.map((p) => p.limiter.allow(clientId, cost))
      : peeks;

    const headers: Record<string, string> = {
      'RateLimit-Policy': policies
        .map((p) => `${quoted(p.name)};q=${p.quota};w=${p.windowSeconds}`)
        .join(', '),
      RateLimit: policies
        .map((p, i) => {
          const answer = answers[i] as RateLimitResult;
          const r = Math.max(0, answer.remaining);
          return `${quoted(p.name)};r=${r};t=${secondsUntil(answer.resetAt, now)}`;
        })
        .join(', '),
    };
    if (!allowed) {
      headers['Retry-After'] = String(Math.max(1, secondsUntil(latestRetry, now)));
    }
    return { allowed, status: allowed ? 200 : 429, headers, violated };
  }
}
