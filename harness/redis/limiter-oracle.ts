// Expected answers for a rate limiter that keeps its state in Redis and reads Redis's clock. A case
// cannot say `resetAt: 1000`: the time is Redis's own, which the judge reads but cannot set. So every
// answer is checked against a single-process model of the same algorithm (a kata's reference, on an
// injected clock), fed Redis's clock: TIME is read just before (t0) and just after (t1) the call, the
// script's "now" lies between, and the answer is right when the model, replayed with the requests
// accepted so far at the times they were accepted, gives exactly that answer at some whole
// millisecond of [t0, t1]. A refused request changes nothing, so only accepted ones are replayed.
// Instances with the same settings share a history, as they share keys in Redis.
import type { Play } from '../suite.ts';

/** What a limiter answers (problems/rate-limiter-contract.ts). */
export interface LimiterAnswer {
  allowed: boolean;
  remaining: number;
  resetAt: number;
  retryAt: number;
}

/** The model of one group of settings: a fresh limiter on the given clock. */
export type LimiterModel = (clock: { now(): number }) => {
  allow(key: string, cost?: number): LimiterAnswer;
  peek(key: string, cost?: number): LimiterAnswer;
};

const FIELDS = ['allowed', 'remaining', 'resetAt', 'retryAt'] as const;

function sameAnswer(expected: LimiterAnswer, actual: unknown): boolean {
  if (typeof actual !== 'object' || actual === null) return false;
  const got = actual as Record<string, unknown>;
  return FIELDS.every((field) => Object.is(expected[field], got[field]));
}

interface Accepted {
  at: number;
  key: string;
  cost: number;
}

/** Redis's time read just before (t0) and just after (t1) a call: its script ran in between. */
export interface Bracket {
  t0: number;
  t1: number;
}

export class LimiterOracle {
  /** Accepted requests by group of settings: what the model replays. */
  private readonly histories = new Map<string, Accepted[]>();
  /** The bracket of the latest call whose answer came: checks of what it wrote count from it. */
  lastBracket: Bracket | undefined;

  constructor(private readonly play: Play) {}

  /** The call, for the case's picture: at Redis's time `at`, with the answer the model gives. */
  private sketch(target: number, args: unknown[], at: number, expected: unknown): void {
    this.play.sketch({ method: 'clock.set', args: [at], expected: null });
    this.play.sketch({ method: 'allow', args, expected, target });
  }

  /** The model's answer at `now`, after the group's accepted requests. */
  private modelAt(
    model: LimiterModel,
    history: Accepted[],
    now: number,
    key: string,
    cost: number,
  ) {
    let time = 0;
    const limiter = model({ now: () => time });
    for (const accepted of history) {
      time = accepted.at;
      limiter.allow(accepted.key, accepted.cost);
    }
    time = now;
    return limiter.peek(key, cost);
  }

  /**
   * Calls `allow` on instance `target` (of settings `group`, modelled by `model`) and checks its
   * answer. `cost` undefined calls `allow(key)` alone, as a learner's default cost of 1 must serve.
   */
  async allow(
    target: number,
    group: string,
    model: LimiterModel,
    key: string,
    cost?: number,
  ): Promise<LimiterAnswer> {
    const history = this.histories.get(group) ?? [];
    this.histories.set(group, history);
    const units = cost ?? 1;
    const t0 = await this.play.redis.now();
    let at: number | undefined;
    const args = cost === undefined ? [key] : [key, cost];
    const answer = (await this.play.call(target, 'allow', args, async (actual: unknown) => {
      const t1 = await this.play.redis.now();
      this.lastBracket = { t0, t1 };
      let expected: LimiterAnswer | undefined;
      for (let now = t0; now <= t1; now++) {
        expected = this.modelAt(model, history, now, key, units);
        if (sameAnswer(expected, actual)) {
          at = now;
          break;
        }
      }
      // No millisecond of the bracket gives this answer: show what the model says at its end.
      this.sketch(target, args, at ?? t1, expected);
      // The statements' T: Redis's time at the first call.
      this.play.timesFrom(at ?? t0, 'T', 'Redis’s time at the first call');
      return expected as LimiterAnswer;
    })) as LimiterAnswer;
    if (answer.allowed && at !== undefined) history.push({ at, key, cost: units });
    return answer;
  }
}
