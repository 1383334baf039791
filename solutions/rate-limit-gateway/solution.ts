// Reference: the object an API gateway asks on every request. It implements no
// limiting algorithm of its own; it holds limiters (any RateLimiter of the
// contract), grouped into tiers of service, and turns their answers into one
// decision with the headers of the IETF draft "RateLimit header fields for
// HTTP" (structured fields: RateLimit-Policy and RateLimit) and Retry-After.
//
// The applicable policies, in check order: the endpoint's own policies (if the
// client's tier names that endpoint), then the tier's global ones. An endpoint
// the tier does not name, `toString` included (Object.hasOwn, not `in` or a
// plain index, which would find Object.prototype's members), has only the
// global policies.
//
// Why it charges nothing on a refusal: a request passes only if every policy
// allows it, and a limiter has no way to give back what `allow` took. So the
// gateway first asks every policy with `peek` (which the contract says gives
// `allow`'s very answer and takes nothing), and calls `allow` on all of them
// only when every peek allowed. Charging as it goes would let a client that an
// endpoint limit keeps refusing drain its global quota with requests that never
// got through (the compound-limiter bug of a well-known PHP framework).
// Because every policy is peeked, `violated` names every one that refused, in
// check order, and the client learns all the limits it hit at once.
//
// The headers, with `now` read once per check, the clock's reading itself: no
// high-water mark, since the limiters keep theirs and resetAt and retryAt are
// times the clock must really reach (after a step back, the wait is longer):
// - RateLimit-Policy: `"name";q=quota;w=windowSeconds` per policy;
// - RateLimit: `"name";r=remaining;t=seconds` per policy, r never below 0 and
//   t = ceil((resetAt - now) / 1000), never below 0 (0 is written: it is a
//   value, not a missing one);
// - items joined by ", ", names as structured-field strings (`\` and `"`
//   escaped); on success from the allow answers, on a refusal from the peeks;
// - Retry-After on a refusal only: whole seconds, ceil((latest retryAt of the
//   refusing policies - now) / 1000), at least 1; absent if any refusing
//   policy's retryAt is Infinity (no waiting helps, so no time is promised).
// With no applicable policy the request is allowed and no header is written.
//
// Tiers: a client is in `defaultTier` until setTier moves it; the move counts
// from its next request, because the tier is looked up on every check and
// nothing else about the client is kept. Assignments live in a Map, so ids
// like `__proto__` are ordinary; tier names are checked with Object.hasOwn.
//
// Cost: O(p) per check for p applicable policies (2p limiter calls at most),
// plus one Map lookup: independent of how many clients there are. Memory: one
// Map entry per client moved with setTier.
//
// Traps it avoids: endpoint policies before global ones (endpoint-first); peek
// all, then allow all (no-charge-on-refusal); every refusing policy named
// (all-violations); Retry-After rounded up, whole seconds, at least 1
// (retry-after-rounds-up), from the latest retryAt (retry-after-latest), and
// absent when a refusal is for good (never-retry); r clamped at 0
// (remaining-never-negative); t=0 still written (reset-zero-kept); exact
// structured-field text (header-syntax); the tier read on every check
// (tier-switch); unknown endpoints and prototype names (unknown-endpoint,
// prototype-ids); limiters always given the cost (explicit-cost); state on the
// instance (instance-isolation); costs checked before any limiter is asked
// (bad-input); O(policies) per check (many-clients).
import type { Clock, RateLimitResult, RateLimiter } from '../../problems/rate-limiter-contract.ts';

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

/** Whole seconds from now until `at`, rounded up; 0 for a time already past. */
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
    // Before any limiter is asked: a bad cost charges nothing, changes nothing.
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
    // Only now, with every policy agreeing, is anything taken.
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
    // Infinity wins the max: a refusal no wait can lift promises no time.
    if (!allowed && latestRetry !== Infinity) {
      headers['Retry-After'] = String(Math.max(1, secondsUntil(latestRetry, now)));
    }
    return { allowed, status: allowed ? 200 : 429, headers, violated };
  }
}
