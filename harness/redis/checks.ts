// Steps that scenario cases on Redis share (see ScenarioCase in suite.ts): clients for the instances,
// and the checks of what an answer cannot show — the keys left, their TTLs, what a refusal wrote, the
// keys each script touched. Each check is one row of the call table.
import type { FixtureSpec, KeyState, Play, ScriptRun } from '../suite.ts';
import { keySlot } from './admin.ts';
import { redisClient } from './facade.ts';

/** `n` clients, `r0`…: one per instance, as separate API servers would each have a connection. */
export function redisClients(n: number): Record<string, FixtureSpec> {
  const made: Record<string, FixtureSpec> = {};
  for (let i = 0; i < n; i++) made[`r${i}`] = redisClient();
  return made;
}

const show = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) => (v === Infinity ? 'Infinity' : v));

/**
 * When a kata's keys must expire, after a call: the rule the statement states, as absolute times on
 * Redis's clock. A check of absolute times does not depend on how fast the machine is: a key set to
 * expire at the right moment passes however long the judge waited before looking.
 */
export interface ExpiryRule {
  /** The call's key: `notBefore` is its own (other keys may rightly expire sooner). */
  key?: string;
  /** The call was allowed, so it wrote `key`: it must be there (unless `notBefore` has passed). */
  written?: boolean;
  /** `key` (or, without one, every key) may not expire before this: when its state is as new. */
  notBefore: number;
  /** No key may expire after this: the rule's longest lifetime after the latest write. */
  notAfter: number;
  /** Where the times are shown from (Redis's time after the call): the report says t+… */
  from: number;
  /** The call, for the report ("after allow(k)"). */
  after: string;
}

/** A key's expiry: no TTL, gone (by `by`), or an absolute time known to lie in [low, high]. */
type Expiry = { none: true } | { gone: true; by: number } | { low: number; high: number };

/** Brackets narrower than this are taken at once; wider ones are read again, a few times. */
const NARROW_MS = 10;
const READS_OF_EXPIRY = 3;

/**
 * A key's absolute expiry (what PEXPIRETIME gives), from PTTL read between two reads of TIME: PTTL
 * counts from some millisecond of that bracket. A judge that was descheduled between the reads only
 * widens the bracket, and the checks below fail a key only when the whole bracket breaks the rule,
 * so a slow machine can let a borderline key through but never fail a right one.
 */
async function expiryOf(play: Play, key: string): Promise<Expiry> {
  let best: { low: number; high: number } | undefined;
  for (let read = 0; read < READS_OF_EXPIRY; read++) {
    const before = await play.redis.now();
    const pttl = await play.redis.pttl(key);
    const after = await play.redis.now();
    if (pttl === -1) return { none: true };
    if (pttl === -2) return { gone: true, by: after };
    // Redis counts whole milliseconds as TIME does; one either side covers the rounding.
    const range = { low: before + pttl - 1, high: after + pttl + 1 };
    if (best === undefined || range.high - range.low < best.high - best.low) best = range;
    if (after - before <= NARROW_MS) break;
  }
  return best!;
}

/** What is wrong with one key's expiry under `rule`, or undefined. */
function expiryFault(key: string, expiry: Expiry, rule: ExpiryRule): string | undefined {
  const at = (ms: number): string => `t${ms < rule.from ? '-' : '+'}${Math.abs(ms - rule.from)}`;
  const notBefore = rule.key === undefined || rule.key === key ? rule.notBefore : -Infinity;
  if ('none' in expiry) return 'no TTL (-1)';
  if ('gone' in expiry) return expiry.by < notBefore ? `gone by ${at(expiry.by)}` : undefined;
  if (expiry.high < notBefore) return `expires at ${at(expiry.high)} or sooner`;
  if (expiry.low > rule.notAfter) return `expires at ${at(expiry.low)} or later`;
  return undefined;
}

/**
 * After a call: every key under the judgement's prefix has an expiry within the rule's times, and
 * the key an allowed call wrote is there. A solution that keeps its state anywhere else (a Map, a
 * key of its own naming) writes no key, and fails here.
 */
export async function checkExpiry(play: Play, rule: ExpiryRule): Promise<void> {
  const keys = await play.redis.keys();
  const at = (ms: number): string => `t${ms < rule.from ? '-' : '+'}${Math.abs(ms - rule.from)}`;
  const what = `expiry of every key, ${rule.after}`;
  const bounds =
    rule.key === undefined
      ? `each from ${at(rule.notBefore)} to ${at(rule.notAfter)}`
      : `"${rule.key}" from ${at(rule.notBefore)}, each by ${at(rule.notAfter)}`;
  const expected = `${bounds} (t: Redis's time after the call)`;
  // A key whose time has come may be gone: only one missing before that is a fault.
  if (rule.written && rule.key !== undefined && !keys.includes(rule.key)) {
    if ((await play.redis.now()) < rule.notBefore) {
      play.check({
        what,
        expected: `the key "${rule.key}" itself: ${expected}`,
        actual: `no key "${rule.key}"`,
        ok: false,
      });
    }
  }
  for (const key of keys) {
    const fault = expiryFault(key, await expiryOf(play, key), rule);
    if (fault !== undefined) play.check({ what, expected, actual: `${key}: ${fault}`, ok: false });
  }
  play.check({ what, expected, actual: keys.length === 0 ? 'no key' : 'all within', ok: true });
}

/** No key is left under the judgement's prefix. */
export async function checkNoKeys(play: Play, when: string): Promise<void> {
  const left = await play.redis.keys();
  play.check({
    what: `keys left ${when}`,
    expected: 'none',
    actual: left.length === 0 ? 'none' : left.slice(0, 3).join(', '),
    ok: left.length === 0,
  });
}

/** The keys written between two snapshots: a value changed, a key came or went, a TTL set again. */
export function keysWritten(before: Map<string, KeyState>, after: Map<string, KeyState>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((key) => {
    const was = before.get(key);
    const is = after.get(key);
    // A TTL only runs down by itself: one that went up was set again.
    return !was || !is || was.value !== is.value || is.pttl > was.pttl;
  });
}

/**
 * The statement's "the Redis key is `key` itself", as MONITOR saw the learner's scripts: each one
 * declared exactly one key in KEYS, a key given to allow, and touched no other. `calls` counts the
 * calls made on each key; with `everyCall`, each of them must have run a script that declared it (a
 * limiter that keeps its state elsewhere runs none). Checked on a standalone server, which would
 * run a script on two keys; a Redis Cluster refuses one whose keys lie in different hash slots.
 */
export function checkScriptKeys(
  play: Play,
  runs: ScriptRun[],
  calls: ReadonlyMap<string, number>,
  everyCall = false,
): void {
  const fault = (run: ScriptRun): string | undefined => {
    const declared = show(run.declared);
    if (run.declared.length !== 1) {
      const slots = new Set(run.declared.map(keySlot)).size;
      const refused =
        slots > 1 ? ': their hash slots differ, a cluster refuses it (CROSSSLOT)' : '';
      return `${run.command} declared KEYS ${declared}${refused}`;
    }
    const [key] = run.declared as [string];
    if (!calls.has(key)) return `${run.command} declared "${key}", a key no call was given`;
    const other = run.touched.find((touched) => touched !== key);
    if (other !== undefined) return `${run.command} touched "${other}" with KEYS ${declared}`;
    return undefined;
  };
  let actual = runs.map(fault).find((found) => found !== undefined);
  if (actual === undefined && everyCall) {
    for (const [key, count] of calls) {
      const ran = runs.filter((run) => run.declared[0] === key).length;
      if (ran < count) {
        actual = `${ran} script run(s) declared "${key}", for ${count} call(s) on it`;
        break;
      }
    }
  }
  play.check({
    what: 'keys each script declared and touched',
    expected: 'KEYS = [the key given to allow], no other key',
    actual: actual ?? `${runs.length} script run(s), each on its own key`,
    ok: actual === undefined,
  });
}

/** A fixed pseudo-random walk (the same every run): `next(n)` is in [0, n). */
export function pseudoRandom(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    // From the high bits: this generator's low bits cycle (the lowest alternates), so `state % n`
    // sent every call of a walk to the same instance and key, each after a wait.
    return Math.floor((state / 2147483648) * n);
  };
}
