// The limiter fixtures (harness/fixtures.ts) and what lets them be built from one another: a
// fixture's arguments, and any object argument of a call, may name a fixture made before, at any
// depth, and get its handle. Checked where the judge builds them: beside the reference (directPort,
// makeFixture) and in a learner's realm (LearnerRealm, the bridge's `revive`).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { directPort, makeFixture, withHandles } from '../../harness/sandbox/port.ts';
import { LearnerRealm } from '../../harness/sandbox/realm.ts';
import {
  fakeClock,
  makeScriptedLimiter,
  makeSpyLimiter,
  makeWindowLimiter,
  scriptedLimiter,
  spyLimiter,
  windowLimiter,
  type LimiterAnswer,
} from '../../harness/fixtures.ts';
import { fixture, type FixtureSpec } from '../../harness/suite.ts';
// The design track's first reference keeps the whole contract; the fixture must answer as it does.
import { FixedWindowLimiter } from '../../solutions/fixed-window-limiter/solution.ts';

class TestClock {
  constructor(public time = 0) {}
  now(): number {
    return this.time;
  }
}

const answer = (
  allowed: boolean,
  remaining: number,
  resetAt: number,
  retryAt: number,
): LimiterAnswer => ({ allowed, remaining, resetAt, retryAt });

describe('the window limiter', () => {
  test('plays the contract’s worked example', () => {
    const clock = new TestClock();
    const { handle } = makeWindowLimiter(clock, 3, 1000);
    const rows: [number, 'allow' | 'peek', string, number, LimiterAnswer][] = [
      [0, 'peek', 'a', 1, answer(true, 2, 1000, 0)],
      [0, 'allow', 'a', 1, answer(true, 2, 1000, 0)],
      [400, 'allow', 'a', 2, answer(true, 0, 1000, 400)],
      [600, 'allow', 'a', 1, answer(false, 0, 1000, 1000)],
      [1000, 'allow', 'a', 1, answer(true, 2, 2000, 1000)],
      [1200, 'allow', 'a', 3, answer(false, 2, 2000, 2000)],
      [1200, 'allow', 'a', 4, answer(false, 2, 2000, Infinity)],
      [2500, 'peek', 'a', 1, answer(true, 2, 3000, 2500)],
      [2500, 'peek', 'b', 5, answer(false, 3, 2500, Infinity)],
      [1500, 'allow', 'a', 1, answer(true, 2, 3000, 2500)],
      [2600, 'allow', 'a', 1, answer(true, 1, 3000, 2600)],
    ];
    for (const [time, method, key, cost, expected] of rows) {
      clock.time = time;
      expect(handle[method](key, cost), `${method}(${key}, ${cost}) at ${time}`).toEqual(expected);
    }
  });

  test('answers as the fixed-window reference does, on random sequences', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(1, 7, 1000),
        fc.array(
          fc.record({
            method: fc.constantFrom('allow' as const, 'peek' as const),
            key: fc.constantFrom('a', 'b', '__proto__'),
            cost: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
            time: fc.integer({ min: 0, max: 5000 }),
          }),
          { maxLength: 40 },
        ),
        (limit, windowMs, steps) => {
          const clock = new TestClock();
          const fixture = makeWindowLimiter(clock, limit, windowMs).handle;
          const reference = new FixedWindowLimiter(limit, windowMs, clock);
          for (const { method, key, cost, time } of steps) {
            clock.time = time;
            expect(fixture[method](key, cost)).toEqual(reference[method](key, cost));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  test('refuses bad settings and bad costs with a RangeError', () => {
    const clock = new TestClock();
    for (const [limit, windowMs] of [
      [0, 1000],
      [1.5, 1000],
      [2, 0],
      [2, NaN],
    ] as const) {
      expect(() => makeWindowLimiter(clock, limit, windowMs)).toThrow(RangeError);
    }
    const { handle } = makeWindowLimiter(clock, 2, 1000);
    for (const cost of [0, -1, 0.5, NaN, Infinity]) {
      expect(() => handle.allow('k', cost)).toThrow(RangeError);
    }
    expect(handle.allow('k')).toEqual(answer(true, 1, 1000, 0));
    expect(Object.isFrozen(handle)).toBe(true);
  });
});

describe('the spy', () => {
  const setup = () => {
    const clock = new TestClock();
    return makeSpyLimiter('minute', makeWindowLimiter(clock, 2, 60_000).handle);
  };

  test('passes every call on as made, and records it', () => {
    const spy = setup();
    expect(spy.handle.peek('a', 1)).toEqual(answer(true, 1, 60_000, 0));
    expect(spy.handle.allow('a')).toEqual(answer(true, 1, 60_000, 0));
    expect(spy.handle.allow('a', 2)).toEqual(answer(false, 1, 60_000, 60_000));
    expect(spy.control.calls()).toEqual([
      { method: 'peek', key: 'a', cost: 1, allowed: true },
      // A cost left out is no field: it reads the same once copied out of a realm as text.
      { method: 'allow', key: 'a', allowed: true },
      { method: 'allow', key: 'a', cost: 2, allowed: false },
    ]);
    expect(spy.control.calls()).toEqual([]);
  });

  test('charges() lists the allow calls since it was last read; status the units charged', () => {
    const spy = setup();
    expect(spy.status()).toBe('minute:0');
    spy.handle.peek('a', 1);
    spy.handle.allow('a', 1);
    expect(spy.status()).toBe('minute:1');
    expect(spy.control.charges()).toEqual([{ key: 'a', cost: 1, allowed: true }]);
    spy.handle.allow('b', 5);
    spy.handle.allow('b', undefined);
    expect(spy.control.charges()).toEqual([
      { key: 'b', cost: 5, allowed: false },
      { key: 'b', allowed: true },
    ]);
    expect(spy.control.charges()).toEqual([]);
    expect(spy.status()).toBe('minute:2');
    // calls() keeps a place of its own: everything is still there for it.
    expect(spy.control.calls()).toHaveLength(4);
  });

  test('records a call whose limiter threw, and throws on', () => {
    const spy = setup();
    expect(() => spy.handle.allow('a', 0)).toThrow(RangeError);
    expect(spy.control.calls()).toEqual([{ method: 'allow', key: 'a', cost: 0, allowed: 'threw' }]);
    expect(spy.status()).toBe('minute:0');
  });
});

describe('the scripted limiter', () => {
  test('answers what it was last told, a fresh copy each time, and checks nothing', () => {
    const scripted = makeScriptedLimiter(answer(false, -3, 5000, Infinity));
    const first = scripted.handle.allow('k', 0);
    expect(first).toEqual(answer(false, -3, 5000, Infinity));
    first.remaining = 99;
    expect(scripted.handle.peek('k', NaN)).toEqual(answer(false, -3, 5000, Infinity));
    expect(scripted.control.answer(answer(true, 4, 2000, 2000))).toBeNull();
    expect(scripted.handle.allow('k')).toEqual(answer(true, 4, 2000, 2000));
  });
});

/** A clock, a window limiter on it, a spy around that: each fixture built on the one before. */
const chain: Record<string, FixtureSpec> = {
  clock: fakeClock(500),
  inner: windowLimiter(fixture('clock'), 1, 1000),
  spy: spyLimiter('spy', fixture('inner')),
  script: scriptedLimiter(answer(false, -1, 0, Infinity)),
};

/** Takes a policy-like object (limiters deep inside it) and asks them, as a gateway would. */
class Composite {
  constructor(private readonly config: { deep: { limiters: { allow(k: string): unknown }[] } }) {}
  ask(key: string): unknown[] {
    return this.config.deep.limiters.map((l) => l.allow(key));
  }
}

describe('fixtures built on fixtures, and fixtures deep inside arguments', () => {
  test('withHandles swaps every fixture(name) for its handle, copying only what changes', () => {
    const handles: Record<string, unknown> = { a: 'A', b: 'B' };
    const plain = { x: [1, { y: 2 }] };
    expect(withHandles(plain, (n) => handles[n])).toBe(plain);
    const proto = JSON.parse(
      '{"__proto__": {"$fixture": "a"}, "n": [{"$fixture": "b"}]}',
    ) as object;
    const swapped = withHandles(proto, (n) => handles[n]) as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(swapped, '__proto__')?.value).toBe('A');
    expect(swapped.n).toEqual(['B']);
    expect(Object.getPrototypeOf(swapped)).toBe(Object.prototype);
    // An object with more than the one field is not a fixture: it stays as it is.
    const lookalike = { $fixture: 'a', other: 1 };
    expect(withHandles([lookalike], (n) => handles[n])).toEqual([lookalike]);
  });

  test('beside the reference: made in order, each handed the ones before it', () => {
    const port = directPort(Composite);
    port.reset(chain);
    const made = port.construct(0, [{ deep: { limiters: [fixture('spy'), fixture('script')] } }]);
    expect(made.ok).toBe(true);
    expect(port.call(0, 'ask', ['k'])).toEqual({
      ok: true,
      value: [answer(true, 0, 1000, 500), answer(false, -1, 0, Infinity)],
    });
    expect(port.status()).toBe('t=500 spy:1');
    expect(port.fixtureCall('spy', 'charges', [])).toEqual({
      ok: true,
      value: [{ key: 'k', allowed: true }],
    });
    expect(() => makeFixture(spyLimiter('s', fixture('later')))).toThrow('no fixture later yet');
    expect(() => port.reset({ spy: chain.spy as FixtureSpec })).toThrow('no fixture inner yet');
  });

  test('in the learner’s realm: the same, with handles of that realm', () => {
    const realm = new LearnerRealm(Object.values(chain).map((spec) => spec.source));
    const loaded = realm.load(
      `var __kataLearner = (() => { ${Composite.toString()}; return { Composite }; })();`,
      'learner-bundle.js',
      'Composite',
    );
    expect(loaded).toEqual({ ok: true });
    realm.reset(chain);
    expect(
      realm.construct(0, [{ deep: { limiters: [fixture('spy'), fixture('script')] } }]).ok,
    ).toBe(true);
    expect(realm.call(0, 'ask', ['k'])).toEqual({
      ok: true,
      value: [answer(true, 0, 1000, 500), answer(false, -1, 0, Infinity)],
    });
    expect(realm.status()).toBe('t=500 spy:1');
    expect(realm.fixtureCall('spy', 'charges', [])).toEqual({
      ok: true,
      value: [{ key: 'k', allowed: true }],
    });
    expect(realm.fixtureCall('clock', 'advance', [1000]).ok).toBe(true);
    expect(realm.call(0, 'ask', ['k'])).toMatchObject({
      value: [answer(true, 0, 2000, 1500), answer(false, -1, 0, Infinity)],
    });
    // A fixture named before it is made, or never: the suite's mistake, said plainly.
    expect(() => realm.reset({ spy: chain.spy as FixtureSpec })).toThrow('no fixture inner yet');
    realm.reset(chain);
    const unknown = realm.construct(0, [{ deep: { limiters: [fixture('nothing')] } }]);
    expect(unknown.ok ? '' : unknown.error.message).toMatch('no fixture nothing yet');
  });
});
