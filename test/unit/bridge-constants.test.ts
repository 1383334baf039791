// The bridge runs in the learner's realm from the source text of its parts (realm.ts evaluates
// them there: see bridgeSource in harness/sandbox/inside-realm.ts), so each part can name nothing
// outside itself and restates the constants the judge's side reads from inside-realm.ts's exports.
// Each restatement is held to its original here, in whichever part makes it: change one without
// the other and this fails. A new upper-case constant must join one of the two lists.
import { describe, expect, test } from 'vitest';
import {
  BRIDGE_PARTS,
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

/** The text of every function the realm evaluates, by name. */
const texts: Record<string, string> = {
  createBridge: String(createBridge),
  ...Object.fromEntries(Object.entries(BRIDGE_PARTS).map(([name, make]) => [name, String(make)])),
};

/** Each restated constant of the bridge, and the original it stands for. */
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

/** Every `const NAME = …;` of an upper-case NAME in the bridge's texts, and its part. */
const declared = Object.entries(texts).flatMap(([part, text]) =>
  [...text.matchAll(/\bconst ([A-Z][A-Z_]*) = ([^;]+);/g)].map((m) => ({
    part,
    name: m[1] as string,
    value: m[2] as string,
  })),
);

/** The value of the one `const NAME = …;` in the bridge's texts, evaluated as written there. */
function restated(name: string): unknown {
  const found = declared.filter((d) => d.name === name);
  if (found.length !== 1) throw new Error(`the bridge declares ${name} ${found.length} times`);
  return new Function(`return (${found[0]!.value});`)() as unknown;
}

describe("the bridge's restated constants", () => {
  test.each(Object.keys(RESTATED))('%s equals its original', (name) => {
    expect(restated(name)).toEqual(RESTATED[name]);
  });

  test('every upper-case constant it declares is restated or its own, once', () => {
    expect(declared.map((d) => d.name).sort()).toEqual([...Object.keys(RESTATED), ...OWN].sort());
  });

  test('a reply code it writes is one the judge reads', () => {
    for (const text of Object.values(texts)) {
      // The codes as the bridge returns them (`return CODE.x`), never as bare numbers.
      const used = new Set([...text.matchAll(/\bCODE\.(\w+)/g)].map((m) => m[1]));
      for (const name of used) expect(Object.keys(REPLY)).toContain(name);
      expect(text).not.toMatch(/return [1-46-8];/);
    }
  });
});
