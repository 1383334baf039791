// The bridge (harness/sandbox/inside-realm.ts) is plain JavaScript: in the judge it runs from
// its source text inside the learner's realm, and here it runs directly, on a stand-in global, so
// that each of its paths is exercised and measured.
import { describe, expect, test } from 'vitest';
import { BRIDGE_PARTS, createBridge, REPLY } from '../../harness/sandbox/inside-realm.ts';

function bridgeWith(exports: Record<string, unknown>) {
  const global: Record<string, unknown> = { __exports: exports };
  const bridge = createBridge(global, false, BRIDGE_PARTS);
  return { bridge, global, out: bridge.out };
}

class Limiter {
  n = 0;
  constructor(readonly clock?: { now(): number }) {}
  hit(by = 1) {
    this.n += by;
    return this.n;
  }
  answer() {
    return { allowed: true, remaining: this.n, retryAt: Infinity };
  }
  echo(x: unknown) {
    return x;
  }
  list() {
    return [1, 'a', null];
  }
  nested() {
    return { a: { b: [1, -0, NaN, undefined] } };
  }
  time() {
    return this.clock?.now();
  }
  fail() {
    throw new RangeError('bad cost');
  }
  failOddly() {
    throw { code: 7 };
  }
  cyclic() {
    const a: Record<string, unknown> = {};
    a.self = a;
    return a;
  }
}

describe('the bridge', () => {
  test('finds the class, or says what is exported', () => {
    expect(bridgeWith({ Limiter }).bridge.load('__exports', '__err', 'Limiter')).toBe(0);
    const missing = bridgeWith({ Other: Limiter, x: 1 });
    expect(missing.bridge.load('__exports', '__err', 'Limiter')).toBe(5);
    expect(missing.out[1]).toBe('it exports: Other, x');
    const none = bridgeWith({});
    expect(none.bridge.load('__exports', '__err', 'Limiter')).toBe(5);
    expect(none.out[1]).toBe('it exports nothing');
    const thrown = bridgeWith({ Limiter });
    thrown.global.__err = { e: new TypeError('at load') };
    expect(thrown.bridge.load('__exports', '__err', 'Limiter')).toBe(REPLY.threw);
    expect(thrown.out.slice(1, 3)).toEqual(['TypeError', 'at load']);
  });

  test('answers primitives, flat objects, flat arrays and the rest as text', () => {
    const { bridge, out } = bridgeWith({ Limiter });
    bridge.load('__exports', '__err', 'Limiter');
    bridge.reset();
    expect(bridge.construct(0, '')).toBe(REPLY.primitive);
    expect(bridge.callPlain(0, 'hit', 1, 2, undefined)).toBe(REPLY.primitive);
    expect(out[1]).toBe(2);
    expect(bridge.call(0, 'hit', 'p', 3)).toBe(REPLY.primitive);
    expect(out[1]).toBe(5);
    expect(bridge.callPlain(0, 'answer', 0, undefined, undefined)).toBe(REPLY.flatObject);
    expect(out.slice(1, 8)).toEqual([3, 'allowed', true, 'remaining', 5, 'retryAt', Infinity]);
    expect(bridge.callPlain(0, 'list', 0, undefined, undefined)).toBe(REPLY.flatArray);
    expect(out.slice(1, 5)).toEqual([3, 1, 'a', null]);
    expect(bridge.callPlain(0, 'nested', 0, undefined, undefined)).toBe(REPLY.json);
    expect(JSON.parse(out[1] as string).a.b).toHaveLength(4);
    expect(bridge.callPlain(0, 'cyclic', 0, undefined, undefined)).toBe(REPLY.json);
    expect(out[1]).toMatch(/unreadable value/);
  });

  test('describes what was thrown as text', () => {
    const { bridge, out } = bridgeWith({ Limiter });
    bridge.load('__exports', '__err', 'Limiter');
    bridge.reset();
    bridge.construct(0, '');
    expect(bridge.callPlain(0, 'fail', 0, undefined, undefined)).toBe(REPLY.threw);
    expect(out.slice(1, 3)).toEqual(['RangeError', 'bad cost']);
    expect(out[4]).toBe(true);
    expect(bridge.callPlain(0, 'failOddly', 0, undefined, undefined)).toBe(REPLY.threw);
    expect(out.slice(1, 3)).toEqual(['', '{"code":7}']);
    expect(out[4]).toBe(false);
    expect(bridge.callPlain(0, 'nope', 0, undefined, undefined)).toBe(REPLY.threw);
    expect(out[2]).toBe('Limiter has no method nope()');
    expect(bridge.callPlain(3, 'hit', 0, undefined, undefined)).toBe(REPLY.threw);
    expect(out[2]).toBe('the suite called hit before constructing Limiter');
  });

  test('builds fixtures, hands their handles to the class, and calls their controls', () => {
    const { bridge, out } = bridgeWith({ Limiter });
    bridge.load('__exports', '__err', 'Limiter');
    bridge.addFactory('clock', (start: number) => {
      let time = start;
      return {
        handle: { now: () => time },
        control: { set: (ms: number) => void (time = ms) },
        status: () => `t=${time}`,
      };
    });
    bridge.reset();
    expect(bridge.makeFixture('clock', 'clock', '[5]')).toBe(0);
    expect(bridge.hasFixture('clock')).toBe(true);
    expect(bridge.construct(0, 'f', 'clock')).toBe(REPLY.primitive);
    expect(bridge.fixtureCall('clock', 'set', '', 42)).toBe(REPLY.primitive);
    expect(out[1]).toBe(null);
    expect(bridge.status()).toBe('t=42');
    bridge.callPlain(0, 'time', 0, undefined, undefined);
    expect(out[1]).toBe(42);
    expect(bridge.fixtureCall('clock', 'jump', '')).toBe(REPLY.threw);
    expect(bridge.makeFixture('broken', 'missing', '[]')).toBe(REPLY.threw);
    bridge.dropInstances();
    expect(bridge.callPlain(0, 'time', 0, undefined, undefined)).toBe(REPLY.threw);
  });

  test('rebuilds object arguments from tagged text', () => {
    const { bridge, out } = bridgeWith({ Limiter });
    bridge.load('__exports', '__err', 'Limiter');
    bridge.reset();
    bridge.construct(0, '');
    const tagged = JSON.stringify({
      by: { '\u0000kata': 'Infinity' },
      u: { '\u0000kata': 'undefined' },
    });
    expect(bridge.call(0, 'echo', 'pj', 1, tagged)).toBe(REPLY.primitive);
    expect(out[1]).toBe(1);
    expect(bridge.call(0, 'echo', 'j', tagged)).toBe(REPLY.flatObject);
    expect(out.slice(1, 4)).toEqual([1, 'by', Infinity]);
  });

  test('keeps what the learner prints, up to a cap, and locks the stack formatter', () => {
    const { bridge, global } = bridgeWith({ Limiter });
    const console = global.console as { log: (...a: unknown[]) => void };
    console.log('a', 1, { b: 2n }, () => 0);
    expect(bridge.drainOutput()).toBe('a 1 {"b":"2n"} [Function]\n');
    for (let i = 0; i < 3000; i++) console.log('0123456789');
    expect(bridge.drainOutput()).toMatch(/more lines not kept\n$/);
    expect(bridge.drainOutput()).toBe('');
    expect(() => (global.setTimeout as () => void)()).toThrow(/timers are not available/);
    expect(Object.getOwnPropertyDescriptor(Error, 'prepareStackTrace')?.writable).toBe(false);
  });
});
