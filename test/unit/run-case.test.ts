// runCase(): one case of a suite against a learner class, in-process, turned into a CaseResult.
// The classes here run directly (directPort); where stacks matter, the learner's class is sealed in
// a realm of its own, as the judge runs it.
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { directPort, type Port } from '../../harness/sandbox/port.ts';
import { LEARNER_GLOBAL, LearnerRealm } from '../../harness/sandbox/realm.ts';
import {
  DEFAULT_TIME_LIMIT_MS,
  runCase,
  type RunContext,
} from '../../harness/judge/child/run-case.ts';
import type { AnyClass, Case, Encoded, Suite } from '../../harness/suite.ts';
import { scratchDir } from '../helpers.ts';

/** The reference: a running sum. `add` refuses negative numbers. */
class Acc {
  sum = 0;
  add(n: number): number {
    if (n < 0) throw new RangeError('negative');
    this.sum += n;
    return this.sum;
  }
}

/** Wrong from 10 on. */
class BadAcc extends Acc {
  override add(n: number): number {
    const sum = super.add(n);
    return n >= 10 ? sum + 1 : sum;
  }
}

/** Throws on 7. */
class ThrowingAcc extends Acc {
  override add(n: number): number {
    if (n === 7) throw new TypeError('seven');
    return super.add(n);
  }
}

/** Busy for a few milliseconds on every call. */
class SlowAcc extends Acc {
  override add(n: number): number {
    const until = performance.now() + 15;
    while (performance.now() < until);
    return super.add(n);
  }
}

/** Right on every sequence except on the fifth call to `add` since the module loaded. */
let callsSoFar = 0;
class LeakyAcc extends Acc {
  override add(n: number): number {
    callsSoFar++;
    const sum = super.add(n);
    return callsSoFar === 5 ? sum + 1 : sum;
  }
}

/** Sequences of one Acc and 1 to 8 additions of 0..20. */
const additions: fc.Arbitrary<Encoded> = fc
  .array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 8 })
  .map((ns) => ({
    methods: ['Acc', ...ns.map(() => 'add')],
    args: [[], ...ns.map((n) => [n])],
    expected: [],
  }));

const fixed: Case = {
  name: 'three additions',
  tier: 'example',
  trap: null,
  methods: ['Acc', 'add', 'add', 'add'],
  args: [[], [1], [10], [2]],
  expected: [null, 1, 11, 13],
};

const property: Case = {
  name: 'random additions',
  tier: 'core',
  trap: 'random',
  hint: 'a hint',
  property: { calls: additions, numRuns: 50 },
};

function context(
  learner: AnyClass | Port,
  cases: Case[] = [],
  extra: Partial<Suite> = {},
): RunContext {
  return {
    suite: { reference: Acc, cases, ...extra },
    learner: typeof learner === 'function' ? directPort(learner) : learner,
    className: 'Acc',
    learnerFile: '/nowhere/solution.ts',
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('fixed and generated cases', () => {
  test('a passing fixed case keeps every call and its metadata', () => {
    const result = runCase(fixed, context(Acc));
    expect(result).toMatchObject({
      name: 'three additions',
      tier: 'example',
      trap: null,
      hint: null,
      status: 'passed',
      totalCalls: 4,
    });
    expect(result.calls).toHaveLength(4);
    expect(result.input).toBeUndefined();
    expect(result.message).toBeUndefined();
    expect(result.ms).toBeLessThan(DEFAULT_TIME_LIMIT_MS);
  });

  test('a failing fixed case names the first wrong call', () => {
    const result = runCase(fixed, context(BadAcc));
    expect(result.status).toBe('failed');
    expect(result.divergedAt).toBe(2);
    expect(result.message).toBe('call 2 returned a wrong value');
    // BadAcc keeps the right sum: only the call with 10 is off, and every call ran.
    expect(result.calls?.map((c) => c.ok)).toEqual([true, true, false, true]);
  });

  test('a fixed case of more than 40 calls shows a window around the divergence', () => {
    const n = 60;
    const ns = Array.from({ length: n }, (_, i) => (i === 49 ? 10 : 1));
    let sum = 0;
    const long: Case = {
      name: 'long',
      tier: 'core',
      trap: 'long',
      hint: 'h',
      methods: ['Acc', ...ns.map(() => 'add')],
      args: [[], ...ns.map((x) => [x])],
      expected: [null, ...ns.map((x) => (sum += x))],
    };
    const result = runCase(long, context(BadAcc));
    expect(result.divergedAt).toBe(50);
    expect(result.calls?.map((c) => c.index)).toEqual([47, 48, 49, 50, 51, 52, 53]);
    expect(result.totalCalls).toBe(54);
  });

  test('a generated case reports its description as the input', () => {
    const generated: Case = {
      name: 'generated',
      tier: 'core',
      trap: 'scale',
      hint: 'h',
      describe: 'Acc, then add(1) 1000 times',
      generate(emit) {
        emit({ method: 'Acc', args: [], expected: null });
        const call = { method: 'add', args: [1], expected: 0 };
        for (let i = 1; i <= 1000; i++) {
          call.expected = i;
          emit(call);
        }
      },
    };
    const passed = runCase(generated, context(Acc));
    expect(passed).toMatchObject({
      status: 'passed',
      input: 'Acc, then add(1) 1000 times',
      totalCalls: 1001,
      calls: [],
    });
    const shifted: Case = {
      ...generated,
      generate(emit) {
        emit({ method: 'Acc', args: [], expected: null });
        for (let i = 1; i <= 1000; i++)
          emit({
            method: 'add',
            args: [i === 500 ? 10 : 1],
            expected: i === 500 ? 509 : i < 500 ? i : i + 9,
          });
      },
    };
    const failed = runCase(shifted, context(BadAcc));
    expect(failed.status).toBe('failed');
    expect(failed.divergedAt).toBe(500);
    expect(failed.totalCalls).toBe(504);
  });

  test('an exception is a runtime error with the stack cut to the learner file', () => {
    const file = path.join(scratchDir('learner'), 'learner.mjs');
    const realm = new LearnerRealm();
    const loaded = realm.load(
      `var ${LEARNER_GLOBAL} = (() => {\nclass Acc {\n  add(n) {\n    return this.helper(n);\n  }\n  helper(n) {\n    throw new RangeError(\`no \${n}\`);\n  }\n}\nreturn { Acc };\n})();`,
      file,
      'Acc',
    );
    expect(loaded).toEqual({ ok: true });
    const result = runCase(fixed, { ...context(realm), learnerFile: file });
    expect(result.status).toBe('runtime-error');
    expect(result.message).toBe('RangeError: no 1');
    expect(result.notImplemented).toBeUndefined();
    const frames = result.stack?.split('\n') ?? [];
    expect(frames).toHaveLength(2);
    expect(frames[0]).toMatch(/^at Acc\.helper .*learner\.mjs:7:\d+\)?$/);
    for (const frame of frames) {
      expect(frame).toMatch(/^at .*learner\.mjs:\d+:\d+\)?$/);
      expect(frame).toContain(path.relative(process.cwd(), file));
    }
    expect(result.stack).not.toMatch(/drive|run-case|judge-bridge/);
  });

  test("the stub's error marks the case not implemented", () => {
    class Stub {
      add(): number {
        throw new Error('Not implemented: Acc.add');
      }
    }
    const result = runCase(fixed, context(Stub));
    expect(result.status).toBe('runtime-error');
    expect(result.notImplemented).toBe(true);
    expect(result.message).toBe('Error: Not implemented: Acc.add');
  });

  test('a thrown non-Error is described, with no stack', () => {
    class Weird {
      add(): number {
        throw 42;
      }
    }
    const result = runCase(fixed, context(Weird));
    expect(result.message).toBe('threw a non-Error: 42');
    expect(result.stack).toBeUndefined();
  });

  test('over its time limit, a right answer is a time limit exceeded', () => {
    const result = runCase({ ...fixed, timeLimitMs: 5 }, context(SlowAcc));
    expect(result.status).toBe('time-limit-exceeded');
    expect(result.ms).toBeGreaterThan(5);
    expect(result.message).toBe(`took ${result.ms} ms; the limit is 5 ms`);
    // The same calls within the default limit pass.
    expect(runCase(fixed, context(SlowAcc)).status).toBe('passed');
  });

  test('time is CPU time: waiting without computing does not count against the limit', () => {
    /** Sleeps 40 ms on every call, using no CPU. */
    class SleepyAcc extends Acc {
      override add(n: number): number {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 40);
        return super.add(n);
      }
    }
    const started = performance.now();
    const result = runCase({ ...fixed, timeLimitMs: 20 }, context(SleepyAcc));
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
    expect(result.status).toBe('passed');
    expect(result.ms).toBeLessThanOrEqual(20);
  });

  test('a wrong answer wins over a slow one', () => {
    class SlowBad extends BadAcc {
      override add(n: number): number {
        const until = performance.now() + 10;
        while (performance.now() < until);
        return super.add(n);
      }
    }
    expect(runCase({ ...fixed, timeLimitMs: 1 }, context(SlowBad)).status).toBe('failed');
  });
});

describe('retained memory', () => {
  const withLimit: Case = { ...fixed, retainedLimitMb: 2 };
  const hostGc = (globalThis as { gc?: () => void }).gc;
  const setGc = (gc: (() => void) | undefined): void => {
    if (gc) (globalThis as { gc?: () => void }).gc = gc;
    else delete (globalThis as { gc?: () => void }).gc;
  };
  afterEach(() => setGc(hostGc));

  const heap = (heapUsed: number): NodeJS.MemoryUsage => ({
    rss: 0,
    heapTotal: 0,
    heapUsed,
    external: 0,
    arrayBuffers: 0,
  });

  test('is measured only when the process can collect garbage', () => {
    setGc(undefined);
    expect(() => runCase(withLimit, context(Acc))).toThrow(
      'memory is measured only with --expose-gc',
    );
  });

  test('over the limit is a memory limit exceeded: heap with the instances less heap without', () => {
    const gc = vi.fn();
    setGc(gc);
    vi.spyOn(process, 'memoryUsage')
      .mockReturnValueOnce(heap(13_716_789))
      .mockReturnValueOnce(heap(13_456_789))
      .mockReturnValueOnce(heap(13_636_789))
      .mockReturnValueOnce(heap(10_160_000))
      .mockReturnValueOnce(heap(10_000_000))
      .mockReturnValueOnce(heap(10_080_000));
    const port = directPort(Acc);
    const drop = vi.spyOn(port, 'dropInstances');
    const result = runCase(withLimit, context(port));
    // The least of three readings with the instances; they are dropped; near the limit, the least
    // of three readings without them (noise of 0.16-0.26 MB in some of each is left out).
    expect(gc).toHaveBeenCalledTimes(6);
    const readings = vi.mocked(process.memoryUsage).mock.invocationCallOrder;
    expect(drop).toHaveBeenCalledTimes(1);
    expect(drop.mock.invocationCallOrder[0]).toBeGreaterThan(readings[2]!);
    expect(drop.mock.invocationCallOrder[0]).toBeLessThan(readings[3]!);
    expect(result.retainedMb).toBe(3.46);
    expect(result.status).toBe('memory-limit-exceeded');
    expect(result.message).toBe('keeps 3.46 MB after the calls; the limit is 2 MB');
  });

  test('far under the limit, one reading each way settles it', () => {
    const gc = vi.fn();
    setGc(gc);
    vi.spyOn(process, 'memoryUsage')
      .mockReturnValueOnce(heap(10_300_000))
      .mockReturnValueOnce(heap(10_560_000))
      .mockReturnValueOnce(heap(10_300_000))
      .mockReturnValueOnce(heap(10_000_000));
    expect(runCase(withLimit, context(Acc))).toMatchObject({ status: 'passed', retainedMb: 0.3 });
    expect(gc).toHaveBeenCalledTimes(4);
  });

  test('within the limit passes, and a shrinking heap counts as nothing kept', () => {
    setGc(() => {});
    vi.spyOn(process, 'memoryUsage')
      .mockReturnValueOnce(heap(11_000_000))
      .mockReturnValueOnce(heap(11_000_000))
      .mockReturnValueOnce(heap(11_000_000))
      .mockReturnValueOnce(heap(10_000_000))
      .mockReturnValueOnce(heap(10_000_000))
      .mockReturnValueOnce(heap(10_000_000));
    const within = runCase(withLimit, context(Acc));
    expect(within).toMatchObject({ status: 'passed', retainedMb: 1 });

    vi.spyOn(process, 'memoryUsage')
      .mockReturnValueOnce(heap(9_000_000))
      .mockReturnValueOnce(heap(9_000_000))
      .mockReturnValueOnce(heap(9_000_000))
      .mockReturnValueOnce(heap(10_000_000));
    expect(runCase(withLimit, context(Acc)).retainedMb).toBe(0);
  });

  test('is not measured once the answers are wrong: memory decides nothing then', () => {
    const gc = vi.fn();
    setGc(gc);
    const result = runCase(withLimit, context(BadAcc));
    expect(result.status).toBe('failed');
    expect(result).not.toHaveProperty('retainedMb');
    expect(gc).not.toHaveBeenCalled();
  });

  test('is not measured at all for cases without a limit', () => {
    setGc(undefined);
    const result = runCase(fixed, context(Acc));
    expect(result.status).toBe('passed');
    expect(result).not.toHaveProperty('retainedMb');
  });
});

describe('property cases', () => {
  test('a class that agrees with the reference passes', () => {
    const result = runCase(property, context(Acc));
    expect(result).toMatchObject({ status: 'passed', name: 'random additions' });
    expect(result.calls).toBeUndefined();
  });

  test('a disagreement is shrunk to a minimal counterexample and shown call by call', () => {
    const result = runCase(property, context(BadAcc));
    expect(result.status).toBe('failed');
    expect(result.message).toBe('a random call sequence disagrees with the reference');
    expect(result.input).toMatch(/^minimal counterexample after \d+ shrinks$/);
    // The smallest failing sequence: construct, then add(10) — the first value BadAcc gets wrong.
    expect(result.calls).toEqual([
      { index: 0, method: 'Acc', args: '', expected: 'null', actual: 'null', ok: true },
      { index: 1, method: 'add', args: '10', expected: '10', actual: '11', ok: false },
    ]);
    expect(result.divergedAt).toBe(1);
    expect(result.totalCalls).toBe(2);
  });

  test('an exception in a random sequence is a runtime error with the counterexample', () => {
    const result = runCase(property, context(ThrowingAcc));
    expect(result.status).toBe('runtime-error');
    expect(result.message).toBe('TypeError: seven');
    expect(result.input).toMatch(/^minimal counterexample/);
    expect(result.calls?.at(-1)).toMatchObject({ args: '7', actual: 'throws TypeError: seven' });
  });

  test('the reference decides expected exceptions and void results', () => {
    class Ref {
      n = 0;
      put(x: number): void {
        if (x < 0) throw new RangeError('negative');
        this.n = x;
      }
      get(): number {
        return this.n;
      }
    }
    class Learner {
      n = 0;
      put(x: number): void {
        if (x < 0) throw new RangeError('below zero');
        this.n = x;
      }
      get(): number {
        return this.n;
      }
    }
    class Lenient extends Learner {
      override put(x: number): void {
        this.n = x;
      }
    }
    const calls: fc.Arbitrary<Encoded> = fc
      .array(
        fc.oneof(
          fc.constant(['get', []]),
          fc.tuple(fc.constant('put'), fc.tuple(fc.integer({ min: -3, max: 3 }))),
        ),
        { maxLength: 6 },
      )
      .map((steps) => ({
        methods: ['Ref', ...steps.map(([m]) => m as string)],
        args: [[], ...steps.map(([, a]) => a as unknown[])],
        expected: [],
      }));
    const c: Case = { name: 'p', tier: 'core', trap: 't', hint: 'h', property: { calls } };
    const ctx = (learner: AnyClass): RunContext => ({
      suite: { reference: Ref, cases: [c] },
      learner: directPort(learner),
      className: 'Ref',
      learnerFile: '/nowhere.ts',
    });
    expect(runCase(c, ctx(Learner)).status).toBe('passed');
    const lenient = runCase(c, ctx(Lenient));
    expect(lenient.status).toBe('failed');
    expect(lenient.calls?.at(-1)).toMatchObject({
      method: 'put',
      expected: 'throws RangeError',
      ok: false,
    });
  });

  test('a failure that does not replay alone is blamed on state shared between instances', () => {
    callsSoFar = 0;
    const result = runCase(property, context(LeakyAcc));
    expect(result.status).toBe('failed');
    expect(result.message).toBe(
      'failed on a random sequence but not when replayed alone: state leaks between instances',
    );
    expect(result.divergedAt).toBeUndefined();
    expect(result.input).toMatch(/^minimal counterexample/);
  });

  test('the suite may supply its own comparison', () => {
    // BadAcc is off by one from 10 on: a comparison with a tolerance of 1 lets it pass.
    const within1 = (e: unknown, a: unknown) => Math.abs(Number(e) - Number(a)) <= 1;
    expect(runCase(property, context(BadAcc, [], { equals: within1 })).status).toBe('passed');
    expect(runCase(fixed, context(BadAcc, [], { equals: within1 })).status).toBe('passed');
  });
});
