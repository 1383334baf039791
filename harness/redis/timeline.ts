// A statement's example for a limiter on Redis, as data: rows of calls at times relative to T, Redis's
// time at the first call, with the answers the rules give at those times. A case plays it on Redis
// (playTimeline: waiting until T + at on Redis's clock, each answer checked by the oracle, since a
// real call cannot land on T exactly), and the project's tests check that the statement's table is
// exactly these rows and that the model gives these answers at these times. So the statement, the
// suite and the rules cannot drift apart.
import type { Play } from '../suite.ts';
import { checkExpiry } from './checks.ts';
import type { LimiterAnswer, LimiterModel } from './limiter-oracle.ts';
import { Limiters, type ModelOf, type Settings } from './limiter-scenarios.ts';

/** One row: a call of `allow`, or (with `expires`) the check of every key's expiry. */
export interface TimelineRow {
  /** Milliseconds after T. */
  at: number;
  /** Which instance calls (index into the timeline's settings); 0 by default. */
  instance?: number;
  key?: string;
  cost?: number;
  /** The answer, its times relative to T (retryAt Infinity for never). */
  answer?: LimiterAnswer;
  /**
   * Every key expires from T + [0] to T + [1]: from the latest resetAt (the state is as new again)
   * to the kata's longest lifetime after the latest allowed call. Checked on absolute times
   * (checkExpiry), so it does not depend on how fast the calls landed.
   */
  expires?: [number, number];
}

export interface Timeline {
  /** The settings of each instance, in the order of their names (A, B…) in the statement. */
  settings: Settings[];
  rows: TimelineRow[];
}

/** Plays a timeline on Redis; `modelOf` gives the model of one instance's settings. */
export async function playTimeline(
  play: Play,
  timeline: Timeline,
  modelOf: ModelOf,
): Promise<void> {
  const limiters = new Limiters(play, modelOf);
  const instances = await limiters.build(timeline.settings);
  let start: number | undefined;
  let latestReset = -Infinity;
  /** The latest allowed call: its row's time, and Redis's time after it. */
  let written: { at: number; t1: number } | undefined;
  for (const row of timeline.rows) {
    if (start !== undefined && row.at > 0 && (await play.redis.now()) < start + row.at) {
      play.note('wait', `until T+${row.at} on Redis’s clock`);
      await play.redis.waitUntil(start + row.at);
    }
    if (row.expires) {
      const t1 = written?.t1 ?? latestReset;
      await checkExpiry(play, {
        notBefore: latestReset,
        notAfter: t1 + row.expires[1] - (written?.at ?? 0),
        from: t1,
        after: `at T+${row.at}`,
      });
      continue;
    }
    const name = row.key ?? 'k';
    const answer = await limiters.allow(instances[row.instance ?? 0]!, name, row.cost);
    start ??= answer.retryAt;
    latestReset = Math.max(latestReset, answer.resetAt);
    if (answer.allowed) written = { at: row.at, t1: limiters.lastBracket.t1 };
  }
}

const NAMES = 'ABCDEFGH';

function relative(value: number): string {
  if (value === Infinity) return 'Infinity';
  return value === 0 ? 'T' : `T+${value}`;
}

/** The rows as the statement's table shows them: time, call, answer (the answer's own spacing). */
export function timelineTable(timeline: Timeline): [string, string, string][] {
  const named = timeline.settings.length > 1;
  return timeline.rows.map((row) => {
    const time = row.at === 0 ? 'T' : `T + ${row.at}`;
    if (row.expires) {
      const [from, to] = row.expires.map(relative) as [string, string];
      return [time, `(every key expires from ${from} to ${to})`, ''];
    }
    const who = named ? `${NAMES[row.instance ?? 0]}.` : '';
    const args = `"${row.key ?? 'k'}"${row.cost === undefined ? '' : `, ${row.cost}`}`;
    const a = row.answer!;
    const answer =
      `\`{allowed: ${a.allowed},${a.allowed ? '  ' : ' '}remaining: ${a.remaining}, ` +
      `resetAt: ${relative(a.resetAt)}, retryAt: ${relative(a.retryAt)}}\``;
    return [time, `\`${who}allow(${args})\``, answer];
  });
}

/** The model's answers at the rows' own times (T = 0): what the rows must say. */
export function timelineByModel(
  timeline: Timeline,
  modelOf: ModelOf,
): (LimiterAnswer | undefined)[] {
  let now = 0;
  const clock = { now: () => now };
  // Instances with the same settings share their state, as they share keys in Redis.
  const shared = new Map<string, ReturnType<LimiterModel>>();
  const models = timeline.settings.map((settings) => {
    const group = settings.join('/');
    if (!shared.has(group)) shared.set(group, modelOf(settings)(clock));
    return shared.get(group)!;
  });
  return timeline.rows.map((row) => {
    now = row.at;
    if (row.expires) return undefined;
    return models[row.instance ?? 0]!.allow(row.key ?? 'k', row.cost);
  });
}
