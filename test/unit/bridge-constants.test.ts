// createBridge runs in the learner's realm from its own source text (harness/sandbox/realm.ts
// evaluates it there), so it can name nothing outside itself and restates the constants the judge's
// side reads from inside-realm.ts's exports. Each restatement is held to its original here: change
// one without the other and this fails. A new upper-case constant must join one of the two lists.
import { describe, expect, test } from 'vitest';
import {
  createBridge,
  FLAT_MAX,
  LIST_MAX,
  OUTBOUND_LIMITS,
  OUTPUT_CAP,
  REPLY,
  TAG,
  TIMER_CHANNEL,
  TIMER_CLEAR_CHANNEL,
  TIMEOUT_MAX,
} from '../../harness/sandbox/inside-realm.ts';

const source = String(createBridge);

/** Each restated constant of createBridge, and the original it stands for. */
const RESTATED: Record<string, unknown> = {
  TAG_KEY: TAG,
  FLAT: FLAT_MAX,
  // out[0] is the code, out[1] a count, then up to FLAT_MAX key and value pairs.
  SLOTS: 2 + 2 * FLAT_MAX,
  CAP: OUTPUT_CAP,
  LIST_LIMIT: LIST_MAX,
  LIMITS: OUTBOUND_LIMITS,
  CODE: REPLY,
  TIMER: TIMER_CHANNEL,
  TIMER_CLEAR: TIMER_CLEAR_CHANNEL,
  TIMEOUT_MAX,
};

/** The bridge's own constants, which nothing outside it reads. */
const OWN = ['MISSING', 'NONE', 'NOT_A_LIST'];

/** The value of `const NAME = …;` in createBridge's text, evaluated as written there. */
function restated(name: string): unknown {
  const found = new RegExp(`\\bconst ${name} = ([^;]+);`).exec(source);
  if (!found) throw new Error(`createBridge no longer declares ${name}`);
  return new Function(`return (${found[1]});`)() as unknown;
}

describe("createBridge's restated constants", () => {
  test.each(Object.keys(RESTATED))('%s equals its original', (name) => {
    expect(restated(name)).toEqual(RESTATED[name]);
  });

  test('every upper-case constant it declares is restated or its own', () => {
    const declared = [...source.matchAll(/\bconst ([A-Z][A-Z_]*) = /g)].map((m) => m[1]);
    expect(declared.sort()).toEqual([...Object.keys(RESTATED), ...OWN].sort());
  });

  test('a reply code it writes is one the judge reads', () => {
    // The codes as the bridge returns them (`return CODE.x`), never as bare numbers.
    const used = new Set([...source.matchAll(/\bCODE\.(\w+)/g)].map((m) => m[1]));
    for (const name of used) expect(Object.keys(REPLY)).toContain(name);
    expect(source).not.toMatch(/return [1-46-8];/);
  });
});
