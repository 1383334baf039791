// Write your RateLimitGateway here. `npm run kata rate-limit-gateway` judges this file on every save.
// The limiters you are handed keep the contract of problems/rate-limiter-contract.md; what the
// gateway answers, and the exact header text, are in this problem's README. A solution stands on its
// own: it may import types only.
import type { Clock, RateLimiter } from '../../problems/rate-limiter-contract.ts';

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

export class RateLimitGateway {
  constructor(tiers: Record<string, Tier>, defaultTier: string, clock: Clock) {}

  setTier(clientId: string, tier: string): void {
    throw new Error('Not implemented: RateLimitGateway.setTier');
  }

  check(clientId: string, endpoint: string, cost: number = 1): Decision {
    throw new Error('Not implemented: RateLimitGateway.check');
  }
}
