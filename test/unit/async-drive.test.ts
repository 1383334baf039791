// driveAsync(): an async case's calls, each answer awaited, and parallel steps counted. Every test
// runs against the class run directly (as the reference is) and sealed in a learner realm (as a
// learner's class is); the realm has no timers, so answers settle by microtasks alone. Then the
// realm's side of the awaiting, against hostile thenables.
import { describe, expect, test } from 'vitest';
import {
  describeStep,
  driveAsync,
  listCalls,
  MAX_ASYNC_CALLS,
  settle,
} from '../../harness/judge/child/drive-async.ts';
import { answerEquals } from '../../harness/judge/child/drive.ts';
import { directPort, type Port } from '../../harness/sandbox/port.ts';
import { LEARNER_GLOBAL, LearnerRealm } from '../../harness/sandbox/realm.ts';
import { fromCalls, parallel, type AnyClass, type Call } from '../../harness/suite.ts';

/**
 * A limiter of `limit` units per key whose state lives behind an await (as in a store): `allow`
 * reads, yields, then writes. `atomic` does both before yielding; otherwise concurrent calls all
 * read the same count, the race a Redis GET-then-SET makes.
 */
const LIMITER_SOURCE = `class Limiter {
  constructor(limit, atomic = true) { this.limit = limit; this.atomic = atomic; this.used = new Map(); }
  async allow(key) {
    if (this.atomic) {
      const used = this.used.get(key) ?? 0;
      const allowed = used < this.limit;
      if (allowed) this.used.set(key, used + 1);
      await null;
      return { allowed, used: allowed ? used + 1 : used };
    }
    const used = this.used.get(key) ?? 0;
    await null;
    await null;
    const allowed = used < this.limit;
    if (allowed) this.used.set(key, used + 1);
    return { allowed, used: allowed ? used + 1 : used };
  }
  shared(key) { return Limiter.store.allow(key); }
  async fail(message) { await null; throw new RangeError(message); }
  failNow(message) { throw new TypeError(message); }
  async failOddly() { throw { code: 7 }; }
  hang() { return new Promise(() => {}); }
  hangSome(i) { return i % 2 === 0 ? this.allow('k') : this.hang(); }
  failSome(i) { return i === 3 ? this.fail('third') : this.allow('k'); }
  plain(x) { return x * 2; }
  thenable(x) { return { then(resolve) { resolve(x + 1); } }; }
  chain(n) { let p = Promise.resolve(0); for (let i = 0; i < n; i++) p = p.then((v) => v + 1); return p; }
  later() { Limiter.held = []; return new Promise((resolve) => Limiter.held.push(resolve)); }
  static release(v) { for (const r of Limiter.held ?? []) r(v); }
}
Limiter.store = new Limiter(2);`;

type LimiterClass = AnyClass & { release(v: unknown): void };

/** The limiter compiled in this realm (the reference's way) or sealed in a realm of its own. */
function direct(): { port: Port; cls: LimiterClass } {
  const cls = new Function(`${LIMITER_SOURCE}; return Limiter;`)() as LimiterClass;
  return { port: directPort(cls), cls };
}

function sealed(): { port: Port; realm: LearnerRealm } {
  const realm = new LearnerRealm();
  const loaded = realm.load(
    `var ${LEARNER_GLOBAL} = (() => { ${LIMITER_SOURCE}; return { Limiter }; })();`,
    'learner-bundle.js',
    'Limiter',
  );
  expect(loaded).toEqual({ ok: true });
  return { port: realm, realm };
}

const ports: [string, () => Port][] = [
  ['run directly', () => direct().port],
  ['sealed in a realm', () => sealed().port],
];

const call = (method: string, args: unknown[], expected: unknown, target = 0): Call => ({
  method,
  args,
  expected,
  target,
});

const options = (over: { callDeadlineMs?: number; keepAll?: boolean } = {}) => ({
  className: 'Limiter',
  equals: answerEquals(),
  keepAll: over.keepAll ?? true,
  stopAfterDivergence: !(over.keepAll ?? true),
  callDeadlineMs: over.callDeadlineMs ?? 2000,
});

describe.each(ports)('driveAsync, the class %s', (_name, makePort) => {
  test('each answer is awaited and compared: promises, thenables, plain values, long chains', async () => {
    const driven = await driveAsync(
      fromCalls([
        call('Limiter', [2], null),
        call('allow', ['a'], { allowed: true, used: 1 }),
        call('allow', ['a'], { allowed: true, used: 2 }),
        call('allow', ['a'], { allowed: false, used: 2 }),
        call('plain', [4], 8),
        call('thenable', [4], 5),
        call('chain', [500], 500),
      ]),
      makePort(),
      options(),
    );
    expect(driven.divergedAt).toBeUndefined();
    expect(driven.thrown).toBeUndefined();
    expect(driven.records.map((r) => [r.method, r.actual, r.ok])).toEqual([
      ['Limiter', 'null', true],
      ['allow', '{allowed:true,used:1}', true],
      ['allow', '{allowed:true,used:2}', true],
      ['allow', '{allowed:false,used:2}', true],
      ['plain', '8', true],
      ['thenable', '5', true],
      ['chain', '500', true],
    ]);
  });

  test('a wrong awaited answer is a divergence, with the fields that differ', async () => {
    const driven = await driveAsync(
      fromCalls([
        call('Limiter', [1], null),
        call('allow', ['a'], { allowed: true, used: 1 }),
        call('allow', ['a'], { allowed: true, used: 2 }),
      ]),
      makePort(),
      options(),
    );
    expect(driven.divergedAt).toBe(2);
    expect(driven.diverged?.actual).toEqual({ allowed: false, used: 1 });
    expect(driven.records[2]).toMatchObject({ ok: false, fields: ['allowed', 'used'] });
  });

  test('a rejection is an exception, like a throw: with its message, and the case stops', async () => {
    for (const [method, name] of [
      ['fail', 'RangeError'],
      ['failNow', 'TypeError'],
    ] as const) {
      const driven = await driveAsync(
        fromCalls([
          call('Limiter', [1], null),
          call(method, ['no luck'], null),
          call('allow', ['a'], { allowed: true }),
        ]),
        makePort(),
        options(),
      );
      expect(driven.thrown?.error).toMatchObject({ isError: true, name, message: 'no luck' });
      expect(driven.totalCalls).toBe(2);
      expect(driven.records[1]?.actual).toBe(`throws ${name}: no luck`);
    }
    const odd = await driveAsync(
      fromCalls([call('Limiter', [1], null), call('failOddly', [], null)]),
      makePort(),
      options(),
    );
    expect(odd.thrown?.error).toMatchObject({ isError: false, name: '' });
  });

  test('an expected exception may come as a rejection', async () => {
    const driven = await driveAsync(
      fromCalls([call('Limiter', [1], null), call('fail', ['x'], { throws: 'RangeError' })]),
      makePort(),
      options(),
    );
    expect(driven.divergedAt).toBeUndefined();
    expect(driven.thrown).toBeUndefined();
  });

  test('a call that never settles stops the case at its deadline, naming the call', async () => {
    const started = performance.now();
    const driven = await driveAsync(
      fromCalls([
        call('Limiter', [1], null),
        call('allow', ['k'], { allowed: true }),
        call('hang', ['k'], null),
        call('allow', ['k'], { allowed: false }),
      ]),
      makePort(),
      options({ callDeadlineMs: 150 }),
    );
    const took = performance.now() - started;
    expect(driven.unsettled).toBe('call 2 hang("k") did not settle within 150 ms');
    expect(took).toBeGreaterThanOrEqual(150);
    expect(took).toBeLessThan(1000);
    expect(driven.totalCalls).toBe(3);
    expect(driven.divergedAt).toBe(2);
    expect(driven.records[2]).toMatchObject({
      method: 'hang',
      actual: 'did not settle',
      ok: false,
    });
  });

  test('a parallel step counts its answers: atomic passes, read-await-write lets too many through', async () => {
    // Ten instances sharing one store: each call goes to the class's shared limiter of 2.
    const shared = parallel(
      Array.from({ length: 10 }, (_, i) => ({ method: 'shared', args: ['k'], target: i })),
      { allowed: true },
      [2, 2],
    );
    // One instance, raced by 8 calls: 3 may pass, the racy design lets every one through.
    const raced = (atomic: boolean): Call[] => [
      call('Limiter', [3, atomic], null),
      parallel(
        Array.from({ length: 8 }, () => ({ method: 'allow', args: ['k'] })),
        { allowed: true },
        [3, 3],
      ),
      parallel(
        Array.from({ length: 4 }, () => ({ method: 'allow', args: ['k'] })),
        null,
        [4, 4],
      ),
    ];
    const good = await driveAsync(fromCalls(raced(true)), makePort(), options());
    expect(good.divergedAt).toBeUndefined();
    expect(good.records[1]).toEqual({
      index: 1,
      method: 'parallel',
      args: '8× allow("k")',
      expected: '3 of 8 match {allowed:true}',
      actual: '3 of 8 match {allowed:true}',
      ok: true,
    });
    expect(good.records[2]).toMatchObject({ expected: '4 of 4 answers', ok: true });
    const racy = await driveAsync(fromCalls(raced(false)), makePort(), options());
    expect(racy.divergedAt).toBe(1);
    expect(racy.diverged?.actual).toBe(8);
    expect(racy.records[1]).toMatchObject({ actual: '8 of 8 match {allowed:true}', ok: false });
    const many = await driveAsync(
      fromCalls([...Array.from({ length: 10 }, (_, i) => call('Limiter', [1], null, i)), shared]),
      makePort(),
      options(),
    );
    expect(many.records[10]).toMatchObject({
      args: '10× shared("k") on instances 0–9',
      expected: '2 of 10 match {allowed:true}',
      actual: '2 of 10 match {allowed:true}',
      ok: true,
    });
  });

  test('a parallel step: a rejection is a runtime error; calls still pending are the time limit', async () => {
    const step = (method: string): Call[] => [
      call('Limiter', [10], null),
      parallel(
        Array.from({ length: 6 }, (_, i) => ({ method, args: [i] })),
        { allowed: true },
        [0, 6],
      ),
    ];
    const failing = await driveAsync(fromCalls(step('failSome')), makePort(), options());
    expect(failing.thrown?.error).toMatchObject({ name: 'RangeError', message: 'third' });
    expect(failing.records[1]?.actual).toBe('failSome(3) on instance 0 throws RangeError: third');
    const started = performance.now();
    const hanging = await driveAsync(
      fromCalls(step('hangSome')),
      makePort(),
      options({ callDeadlineMs: 100 }),
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(hanging.unsettled).toBe(
      'call 1 (6 calls at once): 3 did not settle within 100 ms, the first hangSome(1) on instance 0',
    );
    expect(hanging.records[1]?.actual).toBe('3 of 6 did not settle');
  });

  test('a call that settles after its deadline changes nothing once the case is over', async () => {
    const port = makePort();
    const late = await driveAsync(
      fromCalls([call('Limiter', [1], null), call('later', [], 1)]),
      port,
      options({ callDeadlineMs: 20 }),
    );
    expect(late.unsettled).toMatch(/did not settle/);
    // The next case on the same port: the late answer, settling now, is nobody's.
    const next = await driveAsync(
      fromCalls([call('Limiter', [1], null), call('plain', [1], 2)]),
      port,
      options(),
    );
    expect(next.divergedAt).toBeUndefined();
  });

  test('long cases keep only the rows around the first divergence', async () => {
    const calls = [call('Limiter', [1000], null)];
    for (let i = 1; i <= 30; i++) calls.push(call('allow', ['a'], { allowed: true, used: i }));
    (calls[20] as Call).expected = { allowed: true, used: 99 };
    const driven = await driveAsync(fromCalls(calls), makePort(), options({ keepAll: false }));
    expect(driven.divergedAt).toBe(20);
    expect(driven.records.map((r) => r.index)).toEqual([17, 18, 19, 20, 21, 22, 23]);
  });
});

describe('the calls of an async case', () => {
  test('are listed as copies: a source that reuses one Call changed in place is safe', () => {
    const source = (emit: (call: Call) => void): void => {
      const one = call('allow', ['a'], { allowed: true });
      for (let i = 0; i < 3; i++) {
        one.args[0] = `k${i}`;
        (one.expected as { allowed: boolean }).allowed = i % 2 === 0;
        emit(one);
      }
    };
    expect(listCalls(source).map((c) => [c.args[0], c.expected])).toEqual([
      ['k0', { allowed: true }],
      ['k1', { allowed: false }],
      ['k2', { allowed: true }],
    ]);
  });

  test('are at most MAX_ASYNC_CALLS: an endless generator is a suite mistake, not a hang', () => {
    const endless = (emit: (call: Call) => void): void => {
      for (;;) emit(call('allow', [], null));
    };
    expect(() => listCalls(endless)).toThrow(`at most ${MAX_ASYNC_CALLS} calls`);
  });

  test('a step is described in a few words', () => {
    expect(describeStep([{ method: 'allow', args: ['k'] }])).toBe('1× allow("k")');
    expect(
      describeStep([
        { method: 'allow', args: ['a'], target: 2 },
        { method: 'allow', args: ['b'], target: 5 },
        { method: 'peek', args: [], target: 2 },
        { method: 'allow', args: ['c'], target: 9 },
      ]),
    ).toBe('allow("a"), allow("b"), peek(), … (4 calls) on 3 instances');
  });

  test('a malformed step is the suite author’s error', async () => {
    const bad = { method: '(parallel)', args: [], expected: { where: null, between: [1, 0] } };
    await expect(
      driveAsync(fromCalls([call('Limiter', [1], null), bad]), direct().port, options()),
    ).rejects.toThrow(/a parallel step needs/);
    const ctor = parallel([{ method: 'Limiter', args: [1] }], null, [1, 1]);
    await expect(driveAsync(fromCalls([ctor]), direct().port, options())).rejects.toThrow(
      /not constructors/,
    );
  });
});

/** One method's answer, awaited in the realm (as begin and settled do for the judge), copied out. */
async function answerOf(classSource: string): Promise<unknown> {
  const realm = realmOf(classSource);
  realm.reset(undefined);
  expect(realm.construct(0, []).ok).toBe(true);
  const [reply] = await settle(realm, [realm.begin(0, 'm', [])], 200);
  if (reply === undefined) return { unsettled: true };
  return reply.ok ? reply.value : { threw: `${reply.error.name}: ${reply.error.message}` };
}

describe('the realm awaits hostile thenables without the judge touching them', () => {
  test('a `then` getter is read by the realm, once', async () => {
    expect(
      await answerOf(`let reads = 0;
        class K { m() { return { get then() { reads++; return (ok) => ok(reads); } }; } }`),
    ).toBe(1);
  });

  test('a then that calls back many times, synchronously, counts its first call only', async () => {
    expect(
      await answerOf(`class K { m() { return { then(ok, fail) {
        for (let i = 1; i <= 1000; i++) ok(i);
        fail(new Error('late'));
      } }; } }`),
    ).toBe(1);
  });

  test('a then that throws is a rejection; one that throws after answering is ignored', async () => {
    expect(
      await answerOf(`class K { m() { return { then() { throw new RangeError('no then'); } }; } }`),
    ).toEqual({ threw: 'RangeError: no then' });
    expect(
      await answerOf(
        `class K { m() { return { then(ok) { ok(3); throw new RangeError('after'); } }; } }`,
      ),
    ).toBe(3);
    expect(
      await answerOf(
        `class K { m() { return { get then() { throw new TypeError('getter'); } }; } }`,
      ),
    ).toEqual({ threw: 'TypeError: getter' });
  });

  test("the callbacks a then receives are the realm's own functions: no way back to the judge", async () => {
    const found = (await answerOf(`class K { m() { return { then(ok) {
      let escape;
      try { escape = ok.constructor.constructor('return typeof process')(); } catch (e) { escape = e.name; }
      let stack = new Error('where').stack;
      ok({
        realmFunction: ok instanceof Function && Object.getPrototypeOf(ok) === Function.prototype,
        sameConstructor: ok.constructor === Function,
        escape,
        judgeOnStack: /drive-async|realm\\.ts|run-case/.test(stack),
      });
    } }; } }`)) as Record<string, unknown>;
    expect(found).toEqual({
      realmFunction: true,
      sameConstructor: true,
      // The realm's Function cannot compile code; the judge's could, and would reach `process`.
      escape: 'EvalError',
      judgeOnStack: false,
    });
  });

  test('patching Promise.prototype.then or a promise’s constructor does not bend the awaiting', async () => {
    expect(
      await answerOf(`Promise.prototype.then = function () { throw new Error('patched then'); };
        class K { async m() { return 5; } }`),
    ).toBe(5);
    expect(
      await answerOf(`class P extends Promise { static get [Symbol.species]() { throw new Error('species'); } }
        class K { m() { return P.resolve(6); } }`),
    ).toEqual({ threw: 'Error: species' });
    expect(
      await answerOf(`class K { m() { const p = Promise.resolve(7);
        Object.defineProperty(p, 'constructor', { get() { throw new Error('ctor'); } });
        return p; } }`),
    ).toEqual({ threw: 'Error: ctor' });
  });

  test('an answer whose getter throws when read is a runtime error, as in a synchronous call', async () => {
    expect(
      await answerOf(
        `class K { async m() { return { get allowed() { throw new Error('read'); } }; } }`,
      ),
    ).toEqual({ threw: 'Error: read' });
  });
});

function realmOf(classSource: string): LearnerRealm {
  const realm = new LearnerRealm();
  expect(
    realm.load(
      `var ${LEARNER_GLOBAL} = (() => { ${classSource}; return { K }; })();`,
      'learner-bundle.js',
      'K',
    ),
  ).toEqual({ ok: true });
  return realm;
}

describe('settle on a machine that gave the process no CPU for a while', () => {
  class Deadline {
    // Rejects on its own timer, as a solution with a deadline of its own does.
    late(ms: number): Promise<never> {
      return new Promise((_, reject) => setTimeout(() => reject(new Error('too late')), ms));
    }
  }

  test('an answer that fell due before the deadline is taken, however late the process wakes', async () => {
    const port = directPort(Deadline as never);
    port.reset(undefined);
    port.construct(0, []);
    const ticket = port.begin!(0, 'late', [300]);
    // The process is starved from just before the learner's timer until after the deadline.
    setTimeout(() => {
      const until = performance.now() + 250;
      while (performance.now() < until);
    }, 280);
    const [reply] = await settle(port, [ticket], 400);
    expect(reply).toMatchObject({ ok: false, error: { message: 'too late' } });
  });
});
