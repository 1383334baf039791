// Hostile answers, errors, log lines and requests (issue 21, finding 1): whatever leaves the
// learner's realm must be read there exactly once, into plain data, before the judge checks or
// prints it. Every value below answers differently to each read (getters, proxies) and carries
// "bait": an array of the realm whose methods try each function they are handed, as the double-read
// exploit did with `slice(0, 20).map(fn)`. A judge function's constructor compiles code in the
// judge's realm (here, this test's), so any bait that got one sets `__kataEscaped` on this global.
import { afterEach, describe, expect, test } from 'vitest';
import { formatArgs, formatValue } from '../harness/judge/format-value.ts';
import { makeClock, makeSpyLimiter, makeWindowLimiter } from '../harness/fixtures.ts';
import type { Bridge } from '../harness/judge/child/inside-realm.ts';
import type { OutboundHost, OutboundRequest } from '../harness/judge/child/outbound.ts';
import { LEARNER_GLOBAL, LearnerRealm } from '../harness/judge/child/realm.ts';
import type { Reply } from '../harness/judge/child/port.ts';
import type { FixtureSpec } from '../harness/suite.ts';

/** Learner code: the bait, and values that are a primitive to one read and bait to the next. */
const HOSTILE = `
const tryAll = (args) => {
  for (const x of args) {
    try {
      const F = typeof x === 'function' ? x.constructor : x && x.constructor && x.constructor.constructor;
      if (typeof F === 'function') F('globalThis.__kataEscaped = (globalThis.__kataEscaped || 0) + 1')();
    } catch {}
  }
};
const METHODS = ['slice', 'map', 'forEach', 'filter', 'some', 'every', 'reduce', 'find', 'flatMap',
  'join', 'concat', 'push', 'sort', 'entries', 'keys', 'values', 'replace', 'split', 'then', 'catch'];
function bait() {
  const a = [1];
  for (const name of METHODS) Object.defineProperty(a, name, { value: (...args) => (tryAll(args), a) });
  for (const name of ['toString', 'valueOf', 'toJSON', Symbol.toPrimitive])
    Object.defineProperty(a, name, { value: (...args) => (tryAll(args), 'bait') });
  return a;
}
/** 1 to the first read, bait to the next, and so on. */
function twoFaced(first = 1) {
  let reads = 0;
  return () => (++reads % 2 === 1 ? first : bait());
}
/** Item i is i to its first read (item \`at\` is \`first\`), bait to the next. */
function twoFacedArray(n = 3, at = -1, first = 0) {
  const a = [];
  for (let i = 0; i < n; i++)
    Object.defineProperty(a, i, { get: twoFaced(i === at ? first : i), enumerable: true });
  return a;
}
function twoFacedObject(keys) {
  const o = {};
  for (const key of keys) Object.defineProperty(o, key, { get: twoFaced(true), enumerable: true });
  return o;
}
/** A proxy that answers each read of any key with a primitive, then bait; its length moves too. */
function twoFacedProxy(target) {
  const reads = new Map();
  return new Proxy(target, {
    get(t, key) {
      const n = (reads.get(key) || 0) + 1;
      reads.set(key, n);
      if (key === 'length') return n % 2 === 1 ? 2 : 30;
      if (typeof key === 'symbol') return undefined;
      return n % 2 === 1 ? (key === 'stack' || key === 'name' || key === 'message' ? 'text' : 1) : bait();
    },
    getOwnPropertyDescriptor(t, key) {
      return Reflect.getOwnPropertyDescriptor(t, key) || { value: 1, enumerable: true, configurable: true, writable: true };
    },
    ownKeys: (t) => Reflect.ownKeys(t),
  });
}
function twoFacedError() {
  const e = new Error('x');
  for (const key of ['name', 'message', 'stack'])
    Object.defineProperty(e, key, { get: twoFaced('text'), configurable: true });
  return e;
}
`;

const CLASS = `class K {
  constructor(limiter) { this.limiter = limiter; }
  array() { return twoFacedArray(); }
  longArray() { return twoFacedArray(30); }
  longWords() { return twoFacedArray(40, 35, 'w'); }
  longMixed() { return twoFacedArray(40, 35, NaN); }
  longProxy() { const p = twoFacedProxy(new Array(40).fill(0)); return p; }
  patchedLong() {
    Object.defineProperty(Array.prototype, 31, { set(v) { tryAll([v]); }, get() { return bait(); }, configurable: true });
    Object.defineProperty(Array.prototype, 'toJSON', { value: (...args) => (tryAll(args), bait()), configurable: true });
    const ta = Object.getPrototypeOf(Float64Array.prototype);
    Object.defineProperty(ta, 'length', { get() { tryAll([this]); return 3; }, configurable: true });
    Object.defineProperty(ta, Symbol.toStringTag, { get() { tryAll([this]); return 'Float64Array'; }, configurable: true });
    Object.defineProperty(Float64Array.prototype, 'constructor', { get() { tryAll([this]); return Array; }, configurable: true });
    const a = []; for (let i = 0; i < 30; i++) a.push(i);
    return a;
  }
  proxyArray() { return twoFacedProxy([1, 2]); }
  object() { return twoFacedObject(['allowed', 'remaining']); }
  proxyObject() { return twoFacedProxy({ allowed: true, remaining: 1 }); }
  nested() { return { inner: twoFacedArray(), list: [twoFacedObject(['a'])] }; }
  error() { throw twoFacedError(); }
  proxyError() { throw twoFacedProxy(new Error('x')); }
  proxyThrown() { throw twoFacedProxy({ a: 1 }); }
  baitThrown() { throw bait(); }
  log() { console.log(twoFacedArray(), twoFacedProxy([1]), bait(), twoFacedError()); return 0; }
  async later() { return twoFacedArray(); }
  async laterThrow() { throw twoFacedError(); }
  thenable() { return { then: (ok) => ok(twoFacedProxy([1, 2])) }; }
  spy() { for (let i = 0; i < 3; i++) this.limiter.allow(twoFacedProxy({ key: 'k' })); return 0; }
  post() { return this.limiter.send(twoFacedProxy(['GET', 'k'])); }
}`;

declare global {
  var __kataEscaped: number | undefined;
}

afterEach(() => {
  expect(globalThis.__kataEscaped, 'a judge function reached learner code').toBeUndefined();
});

/** Fails unless `value` is data of this realm: primitives, plain arrays and objects of data fields. */
function expectPlain(value: unknown, path = 'value'): void {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return;
  expect(typeof value, path).toBe('object');
  expect([Array.prototype, Object.prototype], path).toContain(Object.getPrototypeOf(value));
  for (const key of Reflect.ownKeys(value as object)) {
    const field = Object.getOwnPropertyDescriptor(value, key)!;
    expect('value' in field, `${path}.${String(key)} is a data field`).toBe(true);
    expectPlain(field.value, `${path}.${String(key)}`);
  }
}

/** A reply as the judge uses it: checked plain, then printed as a failing row would print it. */
function expectPlainReply(reply: Reply | undefined, what: string): void {
  expect(reply, what).toBeDefined();
  if (reply!.ok) {
    expectPlain(reply!.value, what);
    formatValue(reply!.value);
    formatArgs([reply!.value]);
  } else {
    for (const field of ['name', 'message', 'stack'] as const) {
      expect(typeof reply!.error[field], `${what}: ${field}`).toBe('string');
    }
    expect(typeof reply!.error.isError, what).toBe('boolean');
  }
}

function realmFor(fixtures: readonly FixtureSpec[] = [], host?: OutboundHost): LearnerRealm {
  const realm = new LearnerRealm(
    fixtures.map((f) => f.source),
    { timers: true },
  );
  if (host) realm.attachOutbound(host);
  const loaded = realm.load(
    `var ${LEARNER_GLOBAL} = (() => { ${HOSTILE}; ${CLASS}; return { K }; })();`,
    'learner-bundle.js',
    'K',
  );
  expect(loaded).toEqual({ ok: true });
  return realm;
}

async function settled(realm: LearnerRealm, ticket: number): Promise<Reply | undefined> {
  for (let i = 0; i < 100; i++) {
    const reply = realm.settled(ticket);
    if (reply !== undefined) return reply;
    realm.pump();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return undefined;
}

describe('every value leaves the realm read once, as plain data', () => {
  const synchronous = [
    'array',
    'longArray',
    'longWords',
    'longMixed',
    'longProxy',
    'patchedLong',
    'proxyArray',
    'object',
    'proxyObject',
    'nested',
    'error',
    'proxyError',
    'proxyThrown',
    'baitThrown',
  ];

  test.each(synchronous)('answers and exceptions: %s', (method) => {
    const realm = realmFor();
    realm.reset(undefined);
    expect(realm.construct(0, []).ok).toBe(true);
    for (let i = 0; i < 3; i++) {
      // Each way a call is made: plain arguments, object arguments, and by the fields expected.
      expectPlainReply(realm.call(0, method, []), `${method}()`);
      expectPlainReply(realm.call(0, method, [1, 2]), `${method}(1, 2)`);
      expectPlainReply(realm.call(0, method, [{ a: [1] }]), `${method}({a})`);
      const fields = realm.callExpecting(0, method, [i], ['allowed', 'remaining']);
      expectPlainReply(fields, `${method} by fields`);
    }
  });

  test('the double-read exploit of the issue gets a plain copy, printed without a call', () => {
    const realm = realmFor();
    realm.reset(undefined);
    realm.construct(0, []);
    const reply = realm.call(0, 'array', [1]);
    expect(reply).toEqual({ ok: true, value: expect.any(Object) });
    expectPlainReply(reply, 'array');
    // What came out is what was checked: the primitives of the first read, each read once.
    expect(reply.ok && reply.value).toEqual([0, 1, 2]);
  });

  test('a long list crosses read once: numbers alone, with words, or with a value to tag', () => {
    const realm = realmFor();
    realm.reset(undefined);
    realm.construct(0, []);
    const numbers = Array.from({ length: 40 }, (_, i) => i);
    expect(realm.call(0, 'longArray', [])).toEqual({ ok: true, value: numbers.slice(0, 30) });
    expect(realm.call(0, 'longWords', [])).toEqual({
      ok: true,
      value: numbers.map((n) => (n === 35 ? 'w' : n)),
    });
    expect(realm.call(0, 'longMixed', [])).toEqual({
      ok: true,
      value: numbers.map((n) => (n === 35 ? NaN : n)),
    });
    // Whatever the realm's prototypes say, the list is the one the learner's code returned.
    expect(realm.call(0, 'patchedLong', [])).toEqual({ ok: true, value: numbers.slice(0, 30) });
  });

  test('awaited answers, rejections and thenables', async () => {
    const realm = realmFor();
    realm.reset(undefined);
    realm.construct(0, []);
    for (const method of ['later', 'laterThrow', 'thenable', 'array', 'error']) {
      expectPlainReply(await settled(realm, realm.begin(0, method, [])), method);
    }
  });

  test('log lines are text', () => {
    const realm = realmFor();
    realm.reset(undefined);
    realm.construct(0, []);
    expectPlainReply(realm.call(0, 'log', []), 'log');
    const output = realm.drainOutput();
    expect(typeof output).toBe('string');
    expect(output).toMatch(/\n$/);
  });

  test('fixtures echo the arguments learner code handed them as plain data', () => {
    const clock: FixtureSpec = { source: String(makeClock), args: [0] };
    const limiter: FixtureSpec = {
      source: String(makeWindowLimiter),
      args: [{ $fixture: 'clock' }, 5, 1000],
    };
    const spy: FixtureSpec = {
      source: String(makeSpyLimiter),
      args: ['spy', { $fixture: 'limiter' }],
    };
    const realm = realmFor([clock, limiter, spy]);
    realm.reset({ clock, limiter, spy });
    expect(realm.construct(0, [{ $fixture: 'spy' }]).ok).toBe(true);
    expectPlainReply(realm.call(0, 'spy', []), 'spy');
    expectPlainReply(realm.fixtureCall('spy', 'calls', []), 'spy.calls()');
    expectPlainReply(realm.fixtureCall('spy', 'charges', []), 'spy.charges()');
    expect(typeof realm.status()).toBe('string');
  });

  test('outbound requests carry strings read once', async () => {
    const seen: OutboundRequest[] = [];
    const host: OutboundHost = {
      reset: () => undefined,
      dispatch(request, answer) {
        seen.push(request);
        answer({ ok: true, value: 'OK' });
      },
      close: async () => undefined,
    };
    const wire: FixtureSpec = {
      source: '(post) => ({ handle: { send: (args) => post(args) }, control: {} })',
      outbound: 'redis',
    };
    const realm = realmFor([wire], host);
    realm.reset({ wire });
    realm.construct(0, [{ $fixture: 'wire' }]);
    expectPlainReply(await settled(realm, realm.begin(0, 'post', [])), 'post');
    for (const request of seen) {
      expectPlain(request);
      expect(request.args.every((arg) => typeof arg === 'string')).toBe(true);
    }
  });

  test('loading: a two-faced exception, and a bent Array.prototype.join', () => {
    const thrown = new LearnerRealm();
    const failed = thrown.load(`${HOSTILE}; throw twoFacedError();`, 'learner-bundle.js', 'K');
    expect(failed.ok).toBe(false);
    expect('error' in failed && failed.error.stack).toBe('text');
    expectPlain(failed);

    const joined = new LearnerRealm();
    const missing = joined.load(
      `${HOSTILE}; Array.prototype.join = function (...args) { tryAll(args); return bait(); };
       var ${LEARNER_GLOBAL} = { Other: class {}, also: 1 };`,
      'learner-bundle.js',
      'K',
    );
    expect(missing).toEqual({ ok: false, missing: 'it exports: Other, also' });
  });
});

describe('the judge refuses whatever is not plain data, should the bridge ever be bent', () => {
  /** The realm's bridge, replaced in one method by a version that leaves an object in `out`. */
  function bent(realm: LearnerRealm, method: keyof Bridge, code: number, slots: unknown[]) {
    const bridge = (realm as unknown as { bridge: Bridge }).bridge;
    const out = bridge.out;
    (bridge as unknown as Record<string, unknown>)[method] = () => {
      slots.forEach((slot, i) => (out[1 + i] = slot));
      return code;
    };
  }
  const learnerObject = (): object => ({
    slice: () => {
      throw new Error('the judge called a method of the answer');
    },
  });

  test.each([
    ['a primitive answer', 0, () => [learnerObject()]],
    ['a flat object', 1, () => [1, 'a', learnerObject()]],
    ['a flat object with an object key', 1, () => [1, learnerObject(), 1]],
    ['a flat array', 2, () => [2, 1, learnerObject()]],
    ['a flat array of a strange length', 2, () => [1e9]],
    ['a list of numbers that is no typed array', 7, () => [2, [1, 2]]],
    ['a list of numbers of a proxy', 7, () => [1, new Proxy(new Float64Array(1), {})]],
    ['a list of numbers of another length', 7, () => [3, new Float64Array(2)]],
    ['a list of numbers of another kind', 7, () => [1, new Int32Array(1)]],
    ['a list too long', 7, () => [1e8, new Float64Array(1)]],
    ['plain text that is not text', 8, () => [learnerObject()]],
    ['text that is not text', 3, () => [learnerObject()]],
    ['an exception', 4, () => ['Error', learnerObject(), '', true]],
    ['an unknown reply', 99, () => []],
  ] as const)('%s', (_what, code, slots) => {
    const realm = new LearnerRealm();
    realm.reset(undefined);
    bent(realm, 'callPlain', code, slots());
    const reply = realm.call(0, 'ping', [1]);
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.error.message).toMatch(/not plain data|unknown reply/);
    const bridge = (realm as unknown as { bridge: Record<string, unknown> }).bridge;
    bridge.drainOutput = bridge.status = bridge.takeClockReads = () => learnerObject();
    expect([realm.drainOutput(), realm.status(), realm.clockReads()]).toEqual(['', '', 0]);
  });
});
