// The gateway reference against a model written from the statement, and against the properties the
// kata is about. The model builds its headers with a small structured-field serializer and its
// durations with integer arithmetic, so it shares no formula with the reference. On random tiers
// (window limiters and scripted ones with odd answers) and random traffic (bad costs, prototype
// names, a clock that steps back), every decision and every limiter call of the reference must be
// the model's. The headers parse back, with a parser of the draft's syntax, into exactly the
// policies and numbers they describe; a refused request leaves every limiter as it was. The suite's
// written-out cases are checked against the model too, so their expected answers do not rest on
// the reference alone.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { answerEquals, invoke } from '../../harness/judge/child/drive.ts';
import { directPort } from '../../harness/sandbox/port.ts';
import {
  makeScriptedLimiter,
  makeSpyLimiter,
  makeWindowLimiter,
  type LimiterAnswer,
} from '../../harness/fixtures.ts';
import { decode, isFixed, isThrows, type FixedCase } from '../../harness/suite.ts';
import type { Clock, RateLimiter } from '../../problems/rate-limiter-contract.ts';
import {
  RateLimitGateway,
  type Decision,
  type Policy,
  type Tier,
} from '../../solutions/rate-limit-gateway/solution.ts';
import suite from '../../solutions/rate-limit-gateway/suite.ts';

// ---- The model --------------------------------------------------------------------------------

/** An sf-string (RFC 8941 §3.3.3): printable ASCII, with `\` and `"` escaped. */
function sfString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (code < 0x20 || code > 0x7e) throw new Error(`not printable ASCII: ${JSON.stringify(text)}`);
    out += ch === '\\' || ch === '"' ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

/** An sf-list of strings with integer parameters, members joined by ", " (RFC 8941 §4.1.1). */
function sfList(items: { name: string; params: [string, number][] }[]): string {
  return items
    .map(({ name, params }) => {
      for (const [, value] of params) {
        if (!Number.isSafeInteger(value)) throw new Error(`not an sf-integer: ${value}`);
      }
      return sfString(name) + params.map(([key, value]) => `;${key}=${value}`).join('');
    })
    .join(', ');
}

/** Whole seconds in `ms` whole milliseconds, rounded up, by integer steps (no Math.ceil). */
function wholeSecondsUp(ms: number): number {
  if (ms === Infinity) return Infinity;
  let seconds = 0;
  for (let left = ms; left > 0; left -= 1000) seconds += 1;
  return seconds;
}

/** The statement, followed literally, as slowly and plainly as it reads. */
class Model {
  private readonly moves: [client: string, tier: string][] = [];

  constructor(
    private readonly tiers: Record<string, Tier>,
    private readonly defaultTier: string,
    private readonly clock: Clock,
  ) {
    if (!Object.keys(tiers).includes(defaultTier)) throw new RangeError('unknown default tier');
  }

  setTier(clientId: string, tier: string): void {
    if (!Object.keys(this.tiers).includes(tier)) throw new RangeError('unknown tier');
    this.moves.push([clientId, tier]);
  }

  check(clientId: string, endpoint: string, cost?: number): Decision {
    const units = cost === undefined ? 1 : cost;
    if (typeof units !== 'number' || !Number.isFinite(units) || units < 1 || units % 1 !== 0) {
      throw new RangeError('bad cost');
    }
    // The last move wins; a client never moved is in the default tier.
    let tierName = this.defaultTier;
    for (const [client, tier] of this.moves) if (client === clientId) tierName = tier;
    const tier = Object.entries(this.tiers).find(([name]) => name === tierName)?.[1] as Tier;
    const own = Object.entries(tier.endpoints ?? {}).find(([name]) => name === endpoint)?.[1];
    const policies: Policy[] = [...(own ?? []), ...tier.global];
    if (policies.length === 0) return { allowed: true, status: 200, headers: {}, violated: [] };
    const now = this.clock.now();
    const peeks = policies.map((p) => p.limiter.peek(clientId, units));
    const refusing = policies.filter((_, i) => !(peeks[i] as LimiterAnswer).allowed);
    const allowed = refusing.length === 0;
    const answers = allowed ? policies.map((p) => p.limiter.allow(clientId, units)) : peeks;
    const headers: Record<string, string> = {
      'RateLimit-Policy': sfList(
        policies.map((p) => ({
          name: p.name,
          params: [
            ['q', p.quota],
            ['w', p.windowSeconds],
          ],
        })),
      ),
      RateLimit: sfList(
        policies.map((p, i) => {
          const answer = answers[i] as LimiterAnswer;
          return {
            name: p.name,
            params: [
              ['r', answer.remaining < 0 ? 0 : answer.remaining],
              ['t', wholeSecondsUp(answer.resetAt - now)],
            ],
          };
        }),
      ),
    };
    if (!allowed) {
      const retryTimes = peeks.filter((a) => !a.allowed).map((a) => a.retryAt);
      if (!retryTimes.includes(Infinity)) {
        const latest = retryTimes.reduce((a, b) => (b > a ? b : a));
        headers['Retry-After'] = String(Math.max(1, wholeSecondsUp(latest - now)));
      }
    }
    return {
      allowed,
      status: allowed ? 200 : 429,
      headers,
      violated: refusing.map((p) => p.name),
    };
  }
}

// ---- A parser of the headers, to read them back -------------------------------------------------

interface Item {
  name: string;
  params: Record<string, number>;
}

/** Parses an sf-list of strings with integer parameters, as the draft's clients would. */
function parseList(text: string): Item[] {
  const items: Item[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`${why} at ${i} in ${JSON.stringify(text)}`);
  };
  while (true) {
    if (text[i] !== '"') fail('expected a string');
    i++;
    let name = '';
    while (text[i] !== '"') {
      if (i >= text.length) fail('unterminated string');
      if (text[i] === '\\') {
        i++;
        if (text[i] !== '"' && text[i] !== '\\') fail('bad escape');
      }
      name += text[i];
      i++;
    }
    i++;
    const params: Record<string, number> = {};
    while (text[i] === ';') {
      i++;
      const key = /^[a-z*][a-z0-9_.*-]*/.exec(text.slice(i))?.[0] ?? fail('expected a key');
      i += key.length;
      if (text[i] !== '=') fail('expected =');
      i++;
      const digits = /^-?\d{1,15}/.exec(text.slice(i))?.[0] ?? fail('expected an integer');
      i += digits.length;
      params[key] = Number(digits);
    }
    items.push({ name, params });
    if (i === text.length) return items;
    if (text.slice(i, i + 2) !== ', ') fail('expected ", "');
    i += 2;
  }
}

// ---- Random tiers and traffic -------------------------------------------------------------------

class TestClock implements Clock {
  time = 0;
  now(): number {
    return this.time;
  }
}

type LimiterSpec =
  | { kind: 'window'; quota: number; windowSeconds: number }
  | { kind: 'scripted'; answer: LimiterAnswer };

interface Scenario {
  limiters: LimiterSpec[];
  tiers: { global: number[]; endpoints: Record<string, number[]> }[];
  names: string[];
  steps: (
    | { kind: 'check'; client: string; endpoint: string; cost: number | undefined }
    | { kind: 'setTier'; client: string; tier: string }
    | { kind: 'advance'; ms: number }
    | { kind: 'set'; ms: number }
  )[];
}

const TIERS = ['free', 'pro', 'toString'];
const CLIENTS = ['a', 'b', '__proto__', 'constructor'];
const ENDPOINTS = ['/x', '/y', 'hasOwnProperty', '__proto__'];

const limiterSpec: fc.Arbitrary<LimiterSpec> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('window' as const),
      quota: fc.integer({ min: 1, max: 4 }),
      windowSeconds: fc.constantFrom(1, 2, 5, 60),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('scripted' as const),
      answer: fc.record({
        allowed: fc.boolean(),
        remaining: fc.integer({ min: -3, max: 5 }),
        resetAt: fc.integer({ min: 0, max: 30_000 }),
        retryAt: fc.oneof(fc.integer({ min: 0, max: 30_000 }), fc.constant(Infinity)),
      }),
    }),
  },
);

const scenario: fc.Arbitrary<Scenario> = fc
  .array(limiterSpec, { minLength: 1, maxLength: 5 })
  .chain((limiters) => {
    const n = limiters.length;
    // A tier: a random order of the limiters, cut into global ones and those of two endpoints.
    const tier = fc
      .record({
        order: fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
        cuts: fc.tuple(fc.nat(n), fc.nat(n), fc.nat(n)),
      })
      .map(({ order, cuts }) => {
        const [g, x, y] = cuts;
        const global = order.slice(0, g);
        const rest = order.slice(g);
        return {
          global,
          endpoints: { '/x': rest.slice(0, x), hasOwnProperty: rest.slice(x, x + y) },
        };
      });
    return fc.record({
      limiters: fc.constant(limiters),
      tiers: fc.array(tier, { minLength: 1, maxLength: 3 }),
      names: fc.array(fc.constantFrom('m', 'say "hi"', 'back\\slash', 'a, b', 'p;q=1', ' '), {
        minLength: n,
        maxLength: n,
      }),
      steps: fc.array(
        fc.oneof(
          {
            weight: 6,
            arbitrary: fc.record({
              kind: fc.constant('check' as const),
              client: fc.constantFrom(...CLIENTS),
              endpoint: fc.constantFrom(...ENDPOINTS),
              cost: fc.oneof(
                fc.constant(undefined),
                fc.integer({ min: 1, max: 5 }),
                fc.constantFrom(0, -1, 1.5, NaN, Infinity, 1e9),
              ),
            }),
          },
          {
            weight: 1,
            arbitrary: fc.record({
              kind: fc.constant('setTier' as const),
              client: fc.constantFrom(...CLIENTS),
              tier: fc.constantFrom(...TIERS, 'valueOf', ''),
            }),
          },
          {
            weight: 2,
            arbitrary: fc.record({
              kind: fc.constant('advance' as const),
              ms: fc.integer({ min: 0, max: 7000 }),
            }),
          },
          {
            weight: 1,
            arbitrary: fc.record({
              kind: fc.constant('set' as const),
              ms: fc.integer({ min: 0, max: 30_000 }),
            }),
          },
        ),
        { minLength: 1, maxLength: 40 },
      ),
    });
  });

/** One side of a comparison: limiters on its own clock, each behind a spy, and a gateway. */
function build(s: Scenario, Gateway: typeof RateLimitGateway | typeof Model) {
  const clock = new TestClock();
  const spies = s.limiters.map((spec, i) => {
    const inner =
      spec.kind === 'window'
        ? makeWindowLimiter(clock, spec.quota, spec.windowSeconds * 1000).handle
        : makeScriptedLimiter(spec.answer).handle;
    return makeSpyLimiter(`l${i}`, inner);
  });
  const policy = (i: number): Policy => {
    const spec = s.limiters[i] as LimiterSpec;
    return {
      name: s.names[i] as string,
      limiter: spies[i]?.handle as RateLimiter,
      quota: spec.kind === 'window' ? spec.quota : 10,
      windowSeconds: spec.kind === 'window' ? spec.windowSeconds : 60,
    };
  };
  const tiers: Record<string, Tier> = {};
  s.tiers.forEach((t, i) => {
    tiers[TIERS[i] as string] = {
      global: t.global.map(policy),
      endpoints: Object.fromEntries(
        Object.entries(t.endpoints).map(([name, list]) => [name, list.map(policy)]),
      ),
    };
  });
  return { clock, spies, gateway: new Gateway(tiers, 'free', clock) };
}

type Outcome = { value: unknown } | { threw: string };

function attempt(run: () => unknown): Outcome {
  try {
    return { value: run() };
  } catch (error) {
    return { threw: (error as Error).name };
  }
}

describe('RateLimitGateway against the statement’s model', () => {
  test('every decision, and every call it makes to a limiter, is the model’s', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const ref = build(s, RateLimitGateway);
        const model = build(s, Model);
        for (const step of s.steps) {
          if (step.kind === 'advance' || step.kind === 'set') {
            for (const side of [ref, model]) {
              side.clock.time = step.kind === 'set' ? step.ms : side.clock.time + step.ms;
            }
            continue;
          }
          const run = (side: typeof ref): Outcome =>
            attempt(() =>
              step.kind === 'check'
                ? step.cost === undefined
                  ? side.gateway.check(step.client, step.endpoint)
                  : side.gateway.check(step.client, step.endpoint, step.cost)
                : side.gateway.setTier(step.client, step.tier),
            );
          expect(run(ref)).toEqual(run(model));
          ref.spies.forEach((spy, i) => {
            expect(spy.control.calls()).toEqual(model.spies[i]?.control.calls());
          });
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('the properties the kata is about', () => {
  test('the headers parse back into exactly the policies and numbers behind them', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { clock, spies, gateway } = build(s, RateLimitGateway);
        for (const step of s.steps) {
          if (step.kind === 'advance') clock.time += step.ms;
          if (step.kind === 'set') clock.time = step.ms;
          if (step.kind !== 'check') continue;
          const outcome = attempt(() => gateway.check(step.client, step.endpoint, step.cost));
          if (!('value' in outcome)) continue;
          const decision = outcome.value as Decision;
          const calls = spies.flatMap((spy, i) => spy.control.calls().map((c) => ({ ...c, i })));
          const peeks = calls.filter((c) => c.method === 'peek');
          const allows = calls.filter((c) => c.method === 'allow');
          if (peeks.length === 0) {
            expect(decision).toEqual({ allowed: true, status: 200, headers: {}, violated: [] });
            continue;
          }
          // Charged only if every peek allowed, then each policy once, with the cost.
          const allowed = peeks.every((c) => c.allowed === true);
          expect(decision.allowed).toBe(allowed);
          expect(decision.status).toBe(allowed ? 200 : 429);
          expect(allows.map((c) => c.i).sort()).toEqual(
            allowed ? peeks.map((c) => c.i).sort() : [],
          );
          for (const c of calls) expect(c.cost).toBe(step.cost ?? 1);
          const policy = parseList(decision.headers['RateLimit-Policy'] as string);
          const limit = parseList(decision.headers.RateLimit as string);
          expect(policy.map((p) => p.name)).toEqual(limit.map((p) => p.name));
          expect(policy.every((p) => Object.keys(p.params).join() === 'q,w')).toBe(true);
          for (const item of limit) {
            expect(Object.keys(item.params).join()).toBe('r,t');
            expect(item.params.r).toBeGreaterThanOrEqual(0);
            expect(item.params.t).toBeGreaterThanOrEqual(0);
          }
          const retry = decision.headers['Retry-After'];
          if (retry !== undefined) {
            expect(allowed).toBe(false);
            expect(retry).toMatch(/^[1-9]\d*$/);
          }
          expect(Object.keys(decision.headers).sort()).toEqual(
            [
              'RateLimit',
              'RateLimit-Policy',
              ...(retry === undefined ? [] : ['Retry-After']),
            ].sort(),
          );
        }
      }),
      { numRuns: 200 },
    );
  });

  test('a refused request leaves every limiter as it was', () => {
    const clock = new TestClock();
    const window = (quota: number, seconds: number) =>
      makeSpyLimiter('s', makeWindowLimiter(clock, quota, seconds * 1000).handle);
    const search = window(1, 10);
    const minute = window(3, 60);
    const gateway = new RateLimitGateway(
      {
        std: {
          global: [{ name: 'minute', limiter: minute.handle, quota: 3, windowSeconds: 60 }],
          endpoints: {
            '/search': [{ name: 'search', limiter: search.handle, quota: 1, windowSeconds: 10 }],
          },
        },
      },
      'std',
      clock,
    );
    expect(gateway.check('k', '/search').allowed).toBe(true);
    const before = [search.handle.peek('k'), minute.handle.peek('k')];
    for (let i = 0; i < 5; i++) expect(gateway.check('k', '/search').allowed).toBe(false);
    expect([search.handle.peek('k'), minute.handle.peek('k')]).toEqual(before);
    expect(minute.control.charges()).toEqual([{ key: 'k', cost: 1, allowed: true }]);
    expect(search.status()).toBe('s:1');
  });

  test('Retry-After: 0.2 s is 1, 1.0 s is 1, 1.001 s is 2; none when a refusal is for good', () => {
    const clock = new TestClock();
    const answer: LimiterAnswer = { allowed: false, remaining: 0, resetAt: 0, retryAt: 0 };
    const scripted = makeScriptedLimiter(answer);
    const gateway = new RateLimitGateway(
      { t: { global: [{ name: 's', limiter: scripted.handle, quota: 1, windowSeconds: 1 }] } },
      't',
      clock,
    );
    clock.time = 5000;
    for (const [retryAt, seconds] of [
      [5200, '1'],
      [6000, '1'],
      [6001, '2'],
      [5000, '1'],
      [100, '1'],
      [Infinity, undefined],
    ] as const) {
      scripted.control.answer({ ...answer, retryAt });
      expect(gateway.check('k', '/').headers['Retry-After'], String(retryAt)).toBe(seconds);
    }
  });

  test('costs are checked before any limiter is asked, in a tier without policies too', () => {
    const spy = makeSpyLimiter(
      's',
      makeScriptedLimiter({ allowed: true, remaining: 1, resetAt: 0, retryAt: 0 }).handle,
    );
    const gateway = new RateLimitGateway(
      {
        std: { global: [{ name: 's', limiter: spy.handle, quota: 1, windowSeconds: 1 }] },
        none: { global: [] },
      },
      'std',
      new TestClock(),
    );
    for (const cost of [0, -1, 0.5, NaN, Infinity, -Infinity]) {
      expect(() => gateway.check('k', '/', cost)).toThrow(RangeError);
    }
    expect(spy.control.calls()).toEqual([]);
    gateway.setTier('k', 'none');
    expect(() => gateway.check('k', '/', 0)).toThrow(RangeError);
    expect(() => gateway.setTier('k', 'toString')).toThrow(RangeError);
    expect(
      () => new RateLimitGateway({ std: { global: [] } }, '__proto__', new TestClock()),
    ).toThrow(RangeError);
  });
});

/** The hand-written cases' expected answers, worked out again by the model, not the reference. */
describe('the suite’s written-out cases agree with the model', () => {
  const written = suite.cases.filter((c): c is FixedCase => isFixed(c) && c.methods.length <= 100);
  const equals = answerEquals();
  test.each(written.map((c) => [c.name, c] as const))('%s', (_, c) => {
    // The judge's own way to run a class beside the reference: fixtures made from the case's
    // specs, `fixture(name)` anywhere in an argument replaced by its handle.
    const port = directPort(Model as unknown as new (...args: never[]) => object);
    port.reset(c.fixtures);
    decode(c).forEach((call, index) => {
      const reply = invoke(call, port, 'RateLimitGateway');
      const where = `${c.name}: call ${index} ${call.method}`;
      if (isThrows(call.expected)) {
        expect(reply.ok ? 'no exception' : reply.error.name, where).toBe(call.expected.throws);
      } else {
        expect(reply.ok, where).toBe(true);
        const value = reply.ok ? reply.value : undefined;
        expect(equals(call.expected, value) ? call.expected : value, where).toEqual(call.expected);
      }
    });
  });

  test('every spy the cases read is one the case made', () => {
    for (const c of written) {
      for (const method of c.methods.filter((m) => m.includes('.'))) {
        expect(Object.keys(c.fixtures ?? {}), `${c.name}: ${method}`).toContain(
          method.split('.')[0],
        );
      }
    }
  });
});
