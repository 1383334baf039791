// Steps that scenario cases on Redis share (see ScenarioCase in suite.ts): clients for the instances,
// and the checks of what an answer cannot show — the keys left, their TTLs, what a refusal wrote, the
// keys each script touched. Each check is one row of the call table.
import type { FixtureSpec, Play } from '../suite.ts';
import { keySlot, type KeyState, type ScriptRun } from './admin.ts';
import { redisClient } from './facade.ts';

/** `n` clients, `r0`…: one per instance, as separate API servers would each have a connection. */
export function redisClients(n: number): Record<string, FixtureSpec> {
  const made: Record<string, FixtureSpec> = {};
  for (let i = 0; i < n; i++) made[`r${i}`] = redisClient();
  return made;
}

const show = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) => (v === Infinity ? 'Infinity' : v));

/** Every key under the judgement's prefix has a TTL within [least, most] ms. */
export async function checkTtls(
  play: Play,
  least: number,
  most: number,
  after: string,
): Promise<void> {
  const keys = await play.redis.keys();
  const ttls = await Promise.all(keys.map((key) => play.redis.pttl(key)));
  const low = Math.max(1, least);
  const bad = ttls.findIndex((ttl) => !(ttl >= low && ttl <= most));
  const range = `${Math.min(...ttls)}–${Math.max(...ttls)} ms`;
  const badTtl = ttls[bad];
  play.check({
    what: `PTTL of every key, ${after}`,
    expected: `${low}–${most} ms`,
    actual:
      bad !== -1
        ? `${keys[bad]}: ${badTtl === -1 ? 'no TTL (-1)' : `${badTtl} ms`}`
        : keys.length === 0
          ? 'no key'
          : range,
    ok: bad === -1,
  });
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
 * Every key a script of the learner's touched was given to it in KEYS, and one script's keys share
 * a hash slot: what a Redis Cluster requires of a script.
 */
export async function checkScripts(play: Play, stop: () => Promise<ScriptRun[]>): Promise<void> {
  const runs = await stop();
  const undeclared = runs.flatMap((run) =>
    run.touched.filter((key) => !run.declared.includes(key)).map((key) => ({ run, key })),
  );
  const crossSlot = runs.find((run) => new Set(run.declared.map(keySlot)).size > 1);
  const first = undeclared[0];
  play.check({
    what: 'keys each script touched',
    expected: 'all passed in KEYS, in one hash slot',
    actual:
      first !== undefined
        ? `${first.run.command} touched "${first.key}" with KEYS ${show(first.run.declared)}`
        : crossSlot !== undefined
          ? `${crossSlot.command} declared keys in different slots: ${show(crossSlot.declared)}`
          : `${runs.length} script run(s), all in KEYS`,
    ok: first === undefined && crossSlot === undefined,
  });
}

/** A fixed pseudo-random walk (the same every run): `next(n)` is in [0, n). */
export function pseudoRandom(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
}
