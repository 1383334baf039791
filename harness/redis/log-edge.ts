// The edge of a sliding window, hit at the millisecond, however busy the machine. A unit accepted at
// `a` leaves the window at exactly a + W: a script that trims `< now − W` instead of `<= now − W`
// (or counts before it trims) is wrong there and nowhere else. A call lands on Redis's clock when
// the machine lets it, up to a hundred milliseconds late under load, so a call aimed at one edge
// seldom hits it. So the judge writes the log as other servers would have left it, a unit at every
// millisecond of a range one window back: wherever in that range the call lands, a unit sits
// exactly on its edge. The millisecond the script saw is read back from the log (the score of the
// unit it added, within Redis's times read around the call), and the answer is checked at that
// millisecond against the statement's rules. A call that lands outside the range is checked too,
// and the judge tries again on a new key, its range moved to where calls have been landing.
import { fixture, type Play } from '../suite.ts';
import { redisKey } from './facade.ts';
import type { LimiterAnswer } from './limiter-oracle.ts';

/** The members the judge writes: no solution's own member starts so (theirs begin with a time). */
const SEED = 'seed:';

export interface LogEdge {
  limit: number;
  windowMs: number;
  /** Units seeded, one per millisecond: fewer than `limit`, so that every call is allowed. */
  span: number;
  /** New keys tried before giving up on hitting an edge (the case then passes, saying so). */
  attempts: number;
}

/** The answer the rules give at `now` for a log holding `scores`, to a call of cost 1. */
function answerAt(scores: number[], now: number, { limit, windowMs }: LogEdge): LimiterAnswer {
  const used = scores.filter((score) => score > now - windowMs && score <= now).length + 1;
  return { allowed: true, remaining: limit - used, resetAt: now + windowMs, retryAt: now };
}

/** The unit the call added: its score, if Redis's clock read it between t0 and t1. */
async function scriptTime(play: Play, key: string, t0: number, t1: number): Promise<number> {
  const flat = (await play.redis.read(['ZRANGE', key, '0', '-1', 'WITHSCORES'])) as string[];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const score = Number(flat[i + 1]);
    if (!flat[i]!.startsWith(SEED) && score >= t0 && score <= t1) return score;
  }
  // No unit of this call (refused, or stamped with another clock): the rules allow it anyway.
  return t1;
}

/**
 * Where the next key's range of edges starts, after a call that landed `landed` ms after its seed:
 * centred where calls land, but never so late that a seeded unit would be stamped after the moment
 * it is written (a unit from the future, which no server leaves, misleads a solution that takes the
 * log's newest score as a floor for its own clock, as one written against skewed clocks may).
 */
export function nextOffset(landed: number, { span, windowMs }: LogEdge): number {
  return Math.min(Math.max(0, landed - Math.floor(span / 2)), windowMs - span);
}

/** The scenario: up to `attempts` keys, each seeded, then one call on it, until one hits an edge. */
export function logEdge(edge: LogEdge): (play: Play) => Promise<void> {
  if (edge.span >= edge.limit) throw new Error('the seeded units must leave room for the call');
  return async (play) => {
    const target = await play.construct([fixture('r0'), edge.limit, edge.windowMs]);
    let offset = 0;
    for (let attempt = 1; attempt <= edge.attempts; attempt++) {
      const key = redisKey(`edge-${attempt}`);
      const t0 = await play.redis.now();
      const first = t0 + offset - edge.windowMs;
      const scores = Array.from({ length: edge.span }, (_, i) => first + i);
      await play.redis.seed(
        key,
        scores.map((score, i) => [score, `${SEED}${i}`]),
        scores.at(-1)! + edge.windowMs,
      );
      play.note(
        'log seeded',
        `T is Redis’s time now; ${edge.span} units, one a ms, leaving at ` +
          `T+${offset} to T+${offset + edge.span - 1}`,
      );
      let landed = 0;
      await play.call(target, 'allow', [key], async () => {
        const t1 = await play.redis.now();
        const now = await scriptTime(play, key, t0, t1);
        landed = now - t0;
        return answerAt(scores, now, edge);
      });
      if (landed >= offset && landed < offset + edge.span) {
        play.note('on the edge', `the script's time was T+${landed}, a unit's edge`);
        return;
      }
      play.note('off the range', `the script's time was T+${landed}: again on a new key`);
      offset = nextOffset(landed, edge);
    }
    play.note('no call landed on an edge', 'the machine was too busy; nothing more to check');
  };
}
