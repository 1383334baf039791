// The learner's realm as the judge sees it: answers come out as copies of the judge's own realm,
// whatever their shape, and nothing of the judge goes in.
import { describe, expect, test } from 'vitest';
import { LearnerRealm } from '../../harness/sandbox/realm.ts';

function realmWith(classSource: string): LearnerRealm {
  const realm = new LearnerRealm();
  const loaded = realm.load(
    `var __kataLearner = (() => { ${classSource}; return { K }; })();`,
    'learner-bundle.js',
    'K',
  );
  expect(loaded).toEqual({ ok: true });
  realm.reset(undefined);
  expect(realm.construct(0, []).ok).toBe(true);
  return realm;
}

const value = (realm: LearnerRealm, method: string, args: unknown[] = []): unknown => {
  const reply = realm.call(0, method, args);
  if (!reply.ok) throw new Error(reply.error.message);
  return reply.value;
};

describe('answers leave the realm as copies', () => {
  const realm = realmWith(`class K {
    a(i) { return { allowed: true, remaining: i, resetAt: Infinity, retryAt: -0 }; }
    b(i) { return { x: i, y: NaN }; }
    proto() { return JSON.parse('{"__proto__": 5, "ok": 1}'); }
    nested() { return { deep: { list: [1, 2, { n: null }] } }; }
    list() { return [1, 'two', null, undefined]; }
    echo(x) { return x; }
  }`);

  test('objects of alternating shapes keep their own fields', () => {
    for (let i = 0; i < 3; i++) {
      expect(value(realm, 'a', [i])).toEqual({
        allowed: true,
        remaining: i,
        resetAt: Infinity,
        retryAt: -0,
      });
      expect(Object.is((value(realm, 'a', [i]) as { retryAt: number }).retryAt, -0)).toBe(true);
      expect(value(realm, 'b', [i])).toEqual({ x: i, y: NaN });
    }
  });

  test('a field named __proto__ stays a field, and the copy is a plain object of the judge', () => {
    const copy = value(realm, 'proto') as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toBe(5);
    expect(copy.ok).toBe(1);
  });

  test('lists of numbers go in whole: plain ones as they are, special ones tagged', () => {
    const long = Array.from({ length: 100 }, (_, i) => i * 1.5 - 70);
    expect(value(realm, 'echo', [long])).toEqual(long);
    const special = [1, -0, NaN, Infinity, -Infinity];
    const back = value(realm, 'echo', [special]) as number[];
    expect(back).toEqual(special);
    expect(Object.is(back[1], -0)).toBe(true);
  });

  test('nested values and arrays come out whole', () => {
    const nested = value(realm, 'nested') as { deep: { list: unknown[] } };
    expect(nested).toEqual({ deep: { list: [1, 2, { n: null }] } });
    expect(nested.deep.list).toBeInstanceOf(Array);
    expect(value(realm, 'list')).toEqual([1, 'two', null, undefined]);
  });

  test('an answer read by the fields expected: only those, and a missing one stays missing', () => {
    const asked = ['allowed', 'remaining', 'resetAt', 'retryAt'];
    const full = realm.callExpecting(0, 'a', [7], asked);
    expect(full.ok && full.value).toEqual({
      allowed: true,
      remaining: 7,
      resetAt: Infinity,
      retryAt: -0,
    });
    const lacking = realm.callExpecting(0, 'b', [1], ['x', 'z']);
    expect(lacking.ok && lacking.value).toEqual({ x: 1 });
    expect(lacking.ok && Object.hasOwn(lacking.value as object, 'z')).toBe(false);
    // Not an object, or fields that are objects: answered whole, as usual.
    expect(realm.callExpecting(0, 'list', [], ['x'])).toMatchObject({
      value: [1, 'two', null, undefined],
    });
    const nested = realm.callExpecting(0, 'nested', [], ['deep']);
    expect(nested.ok && nested.value).toEqual({ deep: { list: [1, 2, { n: null }] } });
  });

  test('object arguments are rebuilt inside the realm', () => {
    expect(value(realm, 'echo', [{ a: [1, Infinity] }])).toEqual({ a: [1, Infinity] });
  });
});

describe('learner code that replaces built-ins after it loads', () => {
  test('bends nothing the bridge does for it: its instance and its arguments arrive whole', () => {
    // Loaded first, so every later call of the bridge meets these: a push that drops, a list
    // iterator that yields nothing, and setters on the first indices of every list that swallow
    // what is assigned there. The class itself uses no list.
    const realm = new LearnerRealm();
    const loaded = realm.load(
      `var __kataLearner = (() => {
        Array.prototype.push = function () { return 0; };
        Array.prototype[Symbol.iterator] = function* () {};
        for (let i = 0; i < 4; i++) {
          Object.defineProperty(Array.prototype, i, { set() {}, get() { return undefined; } });
        }
        class K {
          constructor(options) { this.options = options; }
          read(key) { return this.options[key]; }
        }
        return { K };
      })();`,
      'learner-bundle.js',
      'K',
    );
    expect(loaded).toEqual({ ok: true });
    realm.reset(undefined);
    expect(realm.construct(0, [{ limit: 3, name: 'k' }]).ok).toBe(true);
    expect(value(realm, 'read', ['limit'])).toBe(3);
    expect(value(realm, 'read', ['name'])).toBe('k');
  });
});
