// Hidden suite for rate-limit-gateway. Examples must match the statement (a test checks it); hidden
// cases each aim at one trap and carry a hint that points at the idea without giving the code.
//
// The gateway implements no limiter: the judge hands it limiters as fixtures. Most cases give each
// policy a working window limiter on the case's clock (`windowLimiter`), wrapped in a spy
// (`spyLimiter`) that records every allow and peek: `name.charges()` returns the allow calls since
// the last time it was asked, and each row of the call table shows `name:N`, the units that spy has
// charged so far, so a case that fails on charging shows what was consumed, call by call. A few
// follow-ups use scripted limiters (`scriptedLimiter`) to reach answers a working limiter rarely
// gives: a negative remaining, a reset already past, a retry time already reached.
//
// Core cases keep to the statement's constraints: costs of 1 (or small, and never above a quota),
// policy names and endpoints of printable ASCII (quotes and backslashes included), client ids and
// tier names of letters, the clock moving forward. Costs a quota can never hold, odd limiter
// answers, prototype names, bad input and many clients are follow-ups.
import fc from 'fast-check';
import {
  clockStart,
  fakeClock,
  scriptedLimiter,
  spyLimiter,
  windowLimiter,
  type LimiterAnswer,
} from '../../harness/fixtures.ts';
import {
  defineSuite,
  fixture,
  type Encoded,
  type FixtureSpec,
  type PictureReader,
  type Span,
} from '../../harness/suite.ts';
import { CallScript, THROWS } from '../../harness/limiter-script.ts';
import { RateLimitGateway } from './solution.ts';

const CLASS = 'RateLimitGateway';
const CLOCK = fixture('clock');

/** A policy whose limiter is the fixture `spy` (by default the one named like the policy). */
const P = (name: string, quota: number, windowSeconds: number, spy: string = name) => ({
  name,
  limiter: fixture(spy),
  quota,
  windowSeconds,
});

/**
 * The fixtures of a case: the clock, then for every named limiter a spy of that name around a
 * window limiter of `quota` units per `windowSeconds` on the clock, or around a scripted limiter
 * (`name-script`, told what to answer with `answer(name, …)`).
 */
function world(
  startMs: number,
  limiters: Record<string, [quota: number, windowSeconds: number]>,
  scripted: Record<string, LimiterAnswer> = {},
): Record<string, FixtureSpec> {
  const fixtures: Record<string, FixtureSpec> = { clock: fakeClock(startMs) };
  for (const [name, [quota, windowSeconds]] of Object.entries(limiters)) {
    fixtures[`${name}-limiter`] = windowLimiter(CLOCK, quota, windowSeconds * 1000);
    fixtures[name] = spyLimiter(name, fixture(`${name}-limiter`));
  }
  for (const [name, answer] of Object.entries(scripted)) {
    fixtures[`${name}-script`] = scriptedLimiter(answer);
    fixtures[name] = spyLimiter(name, fixture(`${name}-script`));
  }
  return fixtures;
}

/** One policy's part of the headers: its name, q and w, and the r and t of this answer. */
type Item = [name: string, q: number, w: number, r: number, t: number];

interface Decision {
  allowed: boolean;
  status: 200 | 429;
  headers: Record<string, string>;
  violated: string[];
}

const quoted = (name: string): string => `"${name.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

function headersOf(items: Item[], retryAfter: number | null): Record<string, string> {
  if (items.length === 0) return {};
  const headers: Record<string, string> = {
    'RateLimit-Policy': items.map(([n, q, w]) => `${quoted(n)};q=${q};w=${w}`).join(', '),
    RateLimit: items.map(([n, , , r, t]) => `${quoted(n)};r=${r};t=${t}`).join(', '),
  };
  if (retryAfter !== null) headers['Retry-After'] = String(retryAfter);
  return headers;
}

/** An allowed request's decision. */
const pass = (...items: Item[]): Decision => ({
  allowed: true,
  status: 200,
  headers: headersOf(items, null),
  violated: [],
});

/** A refused request's decision; `retryAfter` null when no Retry-After is written. */
const refuse = (violated: string[], retryAfter: number | null, ...items: Item[]): Decision => ({
  allowed: false,
  status: 429,
  headers: headersOf(items, retryAfter),
  violated,
});

/** What a spy's `charges()` lists for one allow call. */
const charge = (key: string, cost: number, allowed = true) => ({ key, cost, allowed });

/** The calls of a case, on gateways and the spies behind them. */
class Script extends CallScript {
  /** A new gateway on the case's clock; later calls go to it. */
  gateway(tiers: unknown, defaultTier: string, expected: unknown = null): this {
    return this.build([tiers, defaultTier], expected);
  }

  check(client: string, endpoint: string, expected: unknown, cost?: number): this {
    return this.call(
      'check',
      cost === undefined ? [client, endpoint] : [client, endpoint, cost],
      expected,
    );
  }

  setTier(client: string, tier: string, expected: unknown = null): this {
    return this.call('setTier', [client, tier], expected);
  }

  /** The allow calls spy `name` saw since it was last asked. */
  charges(name: string, expected: unknown[]): this {
    return this.call(`${name}.charges`, [], expected);
  }

  /** Every call spy `name` saw since it was last asked. */
  calls(name: string, expected: unknown[]): this {
    return this.call(`${name}.calls`, [], expected);
  }

  /** What the scripted limiter behind spy `name` answers from now on. */
  answer(name: string, answer: LimiterAnswer): this {
    return this.call(`${name}-script.answer`, [answer], null);
  }
}

const script = (): Script => new Script(CLASS);

// ---- Random traffic over random tiers (the property cases) ----------------------------------------

/** The limiters random tiers are made of: [quota, windowSeconds], spies named p0 … p3. */
const POOL: [quota: number, windowSeconds: number][] = [
  [2, 1],
  [3, 10],
  [5, 60],
  [1, 2],
];
const POOL_FIXTURES = world(0, Object.fromEntries(POOL.map((setting, i) => [`p${i}`, setting])));
const SPIES = POOL.map((_, i) => `p${i}`);
const TIER_NAMES = ['free', 'pro', 'team'];

/** Names a follow-up gives its policies: quotes, backslashes and spaces to escape. */
const ODD_NAMES = ['per "minute"', 'a\\b', 'two words', 'p;q=1', 'x, y'];

/**
 * One tier: a random order of the pool, cut into the global policies and those of `/a` and `/b`.
 * Within a tier no limiter serves two policies, so every policy's answers are its own.
 */
function randomTier(oddNames: boolean): fc.Arbitrary<unknown> {
  return fc
    .record({
      order: fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 }),
      global: fc.integer({ min: 0, max: 2 }),
      a: fc.integer({ min: 0, max: 1 }),
      b: fc.integer({ min: 0, max: 1 }),
      odd: fc.boolean(),
    })
    .map(({ order, global, a, b, odd }) => {
      const policy = (i: number) => {
        const [quota, windowSeconds] = POOL[i] as [number, number];
        const name = oddNames && odd ? (ODD_NAMES[i] as string) : `p${i}`;
        return P(name, quota, windowSeconds, `p${i}`);
      };
      const take = (from: number, n: number) => order.slice(from, from + n).map(policy);
      return {
        global: take(0, global),
        endpoints: { '/a': take(global, a), '/b': take(global + a, b) },
      };
    });
}

/**
 * A gateway over two or three random tiers, then random checks, clock moves, tier moves and reads
 * of the spies' charges, every spy read once more at the end. Core: three clients, costs of 1, the
 * clock only forward. Follow-up: prototype names as clients, endpoints and tiers (unknown ones
 * throw), costs up to 6 (above most quotas) and bad ones, odd policy names, the clock stepping back.
 */
function randomTraffic(followUp: boolean): fc.Arbitrary<Encoded> {
  const clients = followUp ? ['a', 'b', '__proto__', 'toString'] : ['a', 'b', 'c'];
  const endpoints = followUp ? ['/a', '/b', '/c', 'constructor'] : ['/a', '/b', '/c'];
  const tierTargets = followUp ? [...TIER_NAMES, 'valueOf'] : TIER_NAMES;
  const cost = followUp
    ? fc.oneof(
        { weight: 6, arbitrary: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }) },
        { weight: 1, arbitrary: fc.constantFrom(0, 1.5, 1e9) },
      )
    : fc.constantFrom(undefined, 1);
  const step = fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record({
        kind: fc.constant('check' as const),
        client: fc.constantFrom(...clients),
        endpoint: fc.constantFrom(...endpoints),
        cost,
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('advance' as const),
        ms: fc.oneof(fc.integer({ min: 0, max: 1500 }), fc.integer({ min: 0, max: 20_000 })),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('setTier' as const),
        client: fc.constantFrom(...clients),
        tier: fc.constantFrom(...tierTargets),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('charges' as const),
        spy: fc.constantFrom(...SPIES),
      }),
    },
    ...(followUp
      ? [
          {
            weight: 1,
            arbitrary: fc.record({
              kind: fc.constant('set' as const),
              ms: fc.integer({ min: 0, max: 60_000 }),
            }),
          },
        ]
      : []),
  );
  return fc
    .record({
      // Core: all three tiers exist, so no tier move throws.
      tiers: fc.array(randomTier(followUp), { minLength: followUp ? 2 : 3, maxLength: 3 }),
      steps: fc.array(step, { minLength: 1, maxLength: 25 }),
    })
    .map(({ tiers, steps }): Encoded => {
      const named = Object.fromEntries(tiers.map((tier, i) => [TIER_NAMES[i], tier]));
      const s = script().gateway(named, 'free');
      for (const step of steps) {
        if (step.kind === 'check') s.check(step.client, step.endpoint, null, step.cost);
        else if (step.kind === 'advance') s.advance(step.ms);
        else if (step.kind === 'set') s.set(step.ms);
        else if (step.kind === 'setTier') s.setTier(step.client, step.tier, null);
        else s.charges(step.spy, []);
      }
      for (const spy of SPIES) s.charges(spy, []);
      return s.done();
    });
}

// ---- Many clients ----------------------------------------------------------------------------------

// Sized to the judge's budget, not to a real gateway's 10^5 clients: the reference's time is mostly
// the judge's own cost per call. The array-scanning design pays O(clients) on every setTier and
// check, 25 000²/2 string comparisons of long ids in all: over ten times the limit, where the
// reference stays ten times under it.
const MANY = 25_000;
const MANY_CHECKS = 300;
const MANY_LIMIT_MS = 3000;
const ID_LENGTH = 500;
const ID_FILLER = 'tenant=0042;region=eu-west-1;app=checkout;user=';
/** Client number i: a tenant-scoped id of ID_LENGTH characters, the digits last. */
const clientId = (i: number): string => String(i).padStart(ID_LENGTH, ID_FILLER);
/** 25000 as "25 000". */
const spaced = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ' ');

// ---- The picture of a failing case ----------------------------------------------------------------

interface PolicyShape {
  name: string;
  quota: number;
  windowSeconds: number;
}
interface TierShape {
  global?: PolicyShape[];
  endpoints?: Record<string, PolicyShape[]>;
}

/**
 * The picture of a failing case: the client's checks, allowed or refused, and one window per
 * policy of the wrong check (its window limiter's grid, [k·W, (k+1)·W)), each with the units the
 * allowed checks charged it there, as the reference answers them.
 */
function picture(fixtures: Record<string, FixtureSpec>): PictureReader {
  let time = clockStart(fixtures.clock) ?? 0;
  const gateways = new Map<number, { tiers: Record<string, TierShape>; defaultTier: string }>();
  const tierOf = new Map<string, string>();
  const charged: { lane: string; at: number; cost: number; policies: PolicyShape[] }[] = [];
  let last: { lane: string; policies: PolicyShape[] } | undefined;
  const policiesOf = (target: number, client: string, endpoint: string): PolicyShape[] => {
    const gateway = gateways.get(target);
    const tier = gateway?.tiers[tierOf.get(`${target}:${client}`) ?? gateway.defaultTier];
    if (tier === undefined || typeof tier !== 'object') return [];
    const own = Object.hasOwn(tier.endpoints ?? {}, endpoint) ? tier.endpoints?.[endpoint] : [];
    return [...(own ?? []), ...(tier.global ?? [])].filter((p) => typeof p === 'object');
  };
  return {
    read(call) {
      const target = call.target ?? 0;
      const [first, second, third] = call.args;
      if (call.method === 'clock.set') time = first as number;
      else if (call.method === 'clock.advance') time += first as number;
      else if (call.method === CLASS) {
        gateways.set(target, {
          tiers: first as Record<string, TierShape>,
          defaultTier: second as string,
        });
      } else if (call.method === 'setTier')
        tierOf.set(`${target}:${String(first)}`, String(second));
      else if (call.method === 'check') {
        const lane = `${target}:${String(first)}`;
        const policies = policiesOf(target, String(first), String(second));
        const allowed = (call.expected as { allowed?: unknown } | null)?.allowed === true;
        const cost = typeof third === 'number' ? third : 1;
        if (allowed) charged.push({ lane, at: time, cost, policies });
        last = { lane, policies };
        return { at: time, mark: allowed ? 'allowed' : 'refused', lane };
      }
      return { at: time };
    },
    windows(at, lane): Span[] {
      if (last?.lane !== lane) return [];
      return last.policies.map((policy) => {
        const W = policy.windowSeconds * 1000;
        const from = Math.floor(at / W) * W;
        const took = charged
          .filter((c) => c.lane === lane && c.at >= from && c.at < from + W)
          .filter((c) => c.policies.some((p) => p.name === policy.name))
          .reduce((sum, c) => sum + c.cost, 0);
        return {
          name: policy.name,
          from,
          to: from + W,
          bounds: '[)',
          note: `took ${took} of ${policy.quota}`,
        };
      });
    },
  };
}

export default defineSuite({
  reference: RateLimitGateway,
  picture,
  // Module-level state shows as cases that fail after others ran, and pass alone.
  sharedStateTrap: 'instance-isolation',
  // The gateway must read the clock it is handed, never the real time.
  realTimeTrap: 'injected-clock',
  cases: [
    {
      name: 'statement example: an endpoint limit and a global one',
      tier: 'example',
      trap: null,
      fixtures: world(1500, { search: [2, 10], minute: [5, 60] }),
      ...script()
        .gateway(
          {
            free: {
              global: [P('minute', 5, 60)],
              endpoints: { '/search': [P('search', 2, 10)] },
            },
          },
          'free',
        )
        .check('alice', '/search', pass(['search', 2, 10, 1, 9], ['minute', 5, 60, 4, 59]))
        .check('alice', '/search', pass(['search', 2, 10, 0, 9], ['minute', 5, 60, 3, 59]))
        .check(
          'alice',
          '/search',
          refuse(['search'], 9, ['search', 2, 10, 0, 9], ['minute', 5, 60, 2, 59]),
        )
        .charges('minute', [charge('alice', 1), charge('alice', 1)])
        .check('alice', '/profile', pass(['minute', 5, 60, 2, 59]))
        .done(),
    },
    {
      name: 'statement example: tiers',
      tier: 'example',
      trap: null,
      fixtures: world(0, { free: [2, 60], pro: [10, 60] }),
      ...script()
        .gateway(
          { free: { global: [P('free', 2, 60)] }, pro: { global: [P('pro', 10, 60)] } },
          'free',
        )
        .check('bob', '/orders', pass(['free', 2, 60, 1, 60]))
        .check('bob', '/orders', pass(['free', 2, 60, 0, 60]))
        .check('bob', '/orders', refuse(['free'], 60, ['free', 2, 60, 0, 60]))
        .setTier('bob', 'pro')
        .check('bob', '/orders', pass(['pro', 10, 60, 9, 60]))
        .check('carol', '/orders', pass(['free', 2, 60, 1, 60]))
        .advance(45_500)
        .check('bob', '/orders', pass(['pro', 10, 60, 6, 15]), 3)
        .done(),
    },
    {
      name: 'the endpoint’s policies come first',
      tier: 'core',
      trap: 'endpoint-first',
      hint: 'The order of the policies is part of the answer: the endpoint’s own policies are checked, listed and reported first, then the tier’s global ones, in the order the tier gives them.',
      fixtures: world(0, { burst: [1, 10], hour: [2, 3600] }),
      ...script()
        .gateway(
          { std: { global: [P('hour', 2, 3600)], endpoints: { '/upload': [P('burst', 1, 10)] } } },
          'std',
        )
        .check('k', '/upload', pass(['burst', 1, 10, 0, 10], ['hour', 2, 3600, 1, 3600]))
        .set(10_000)
        .check('k', '/upload', pass(['burst', 1, 10, 0, 10], ['hour', 2, 3600, 0, 3590]))
        .check(
          'k',
          '/upload',
          refuse(['burst', 'hour'], 3590, ['burst', 1, 10, 0, 10], ['hour', 2, 3600, 0, 3590]),
        )
        .check('k', '/status', refuse(['hour'], 3590, ['hour', 2, 3600, 0, 3590]))
        .done(),
    },
    {
      name: 'a refused request takes nothing from any policy',
      tier: 'core',
      trap: 'no-charge-on-refusal',
      hint: 'A request the gateway refuses must not use up any quota, not even that of the policies that would have let it through: a client held back by one limit would otherwise drain the others with requests that never got in. Limiters cannot give back what allow took, so find out first whether every policy agrees.',
      fixtures: world(0, { search: [1, 10], minute: [3, 60] }),
      ...(() => {
        const both = (minute: [r: number, t: number]): unknown =>
          refuse(['search'], 10, ['search', 1, 10, 0, 10], ['minute', 3, 60, ...minute]);
        const global = refuse(['minute'], 50, ['search', 1, 10, 0, 10], ['minute', 3, 60, 0, 50]);
        // The spies are read right after each refusal: what a refusal charged shows at once.
        return script()
          .gateway(
            {
              std: { global: [P('minute', 3, 60)], endpoints: { '/search': [P('search', 1, 10)] } },
            },
            'std',
          )
          .check('k', '/search', pass(['search', 1, 10, 0, 10], ['minute', 3, 60, 2, 60]))
          .check('k', '/search', both([1, 60]))
          .charges('minute', [charge('k', 1)])
          .charges('search', [charge('k', 1)])
          .check('k', '/search', both([1, 60]))
          .check('k', '/search', both([1, 60]))
          .charges('minute', [])
          .charges('search', [])
          .check('k', '/home', pass(['minute', 3, 60, 1, 60]))
          .check('k', '/home', pass(['minute', 3, 60, 0, 60]))
          .set(10_000)
          .check('k', '/search', global)
          .charges('search', [])
          .check('k', '/search', global)
          .charges('search', [])
          .charges('minute', [charge('k', 1), charge('k', 1)])
          .done();
      })(),
    },
    {
      name: 'every policy that refuses is named',
      tier: 'core',
      trap: 'all-violations',
      hint: 'violated lists every policy that refused the request, in check order, not only the first: a client told about one limit at a time retries into the next.',
      fixtures: world(0, { ep: [1, 10], day: [1, 86_400] }),
      ...script()
        .gateway(
          { std: { global: [P('day', 1, 86_400)], endpoints: { '/pay': [P('ep', 1, 10)] } } },
          'std',
        )
        .check('k', '/pay', pass(['ep', 1, 10, 0, 10], ['day', 1, 86_400, 0, 86_400]))
        .check(
          'k',
          '/pay',
          refuse(['ep', 'day'], 86_400, ['ep', 1, 10, 0, 10], ['day', 1, 86_400, 0, 86_400]),
        )
        .set(10_000)
        .check(
          'k',
          '/pay',
          refuse(['day'], 86_390, ['ep', 1, 10, 0, 10], ['day', 1, 86_400, 0, 86_390]),
        )
        .done(),
    },
    {
      name: 'Retry-After and t round up to whole seconds',
      tier: 'core',
      trap: 'retry-after-rounds-up',
      hint: 'Retry-After and t are whole seconds, never milliseconds, and they round up: coming back a fraction of a second too early is a wasted request. 0.2 s is 1, 1.0 s is 1, 1.001 s is 2.',
      fixtures: world(800, { sec: [1, 1], two: [1, 2] }),
      ...script()
        .gateway(
          { std: { global: [], endpoints: { '/a': [P('sec', 1, 1)], '/b': [P('two', 1, 2)] } } },
          'std',
        )
        .check('k', '/a', pass(['sec', 1, 1, 0, 1]))
        .check('k', '/a', refuse(['sec'], 1, ['sec', 1, 1, 0, 1]))
        .set(2000)
        .check('k', '/a', pass(['sec', 1, 1, 0, 1]))
        .check('k', '/a', refuse(['sec'], 1, ['sec', 1, 1, 0, 1]))
        .set(4999)
        .check('k', '/b', pass(['two', 1, 2, 0, 2]))
        .check('k', '/b', refuse(['two'], 2, ['two', 1, 2, 0, 2]))
        .set(5999)
        .check('k', '/b', refuse(['two'], 1, ['two', 1, 2, 0, 1]))
        .done(),
    },
    {
      name: 'two policies refuse: the later retry time wins',
      tier: 'core',
      trap: 'retry-after-latest',
      hint: 'When several policies refuse, the request can only pass once all of them would allow it: Retry-After comes from the latest retry time among them, whichever policy comes first.',
      fixtures: world(0, { ten: [1, 10], minute: [1, 60] }),
      ...script()
        .gateway(
          {
            a: { global: [P('minute', 1, 60)], endpoints: { '/x': [P('ten', 1, 10)] } },
            b: { global: [P('ten', 1, 10)], endpoints: { '/y': [P('minute', 1, 60)] } },
          },
          'a',
        )
        .check('k', '/x', pass(['ten', 1, 10, 0, 10], ['minute', 1, 60, 0, 60]))
        .check(
          'k',
          '/x',
          refuse(['ten', 'minute'], 60, ['ten', 1, 10, 0, 10], ['minute', 1, 60, 0, 60]),
        )
        .setTier('j', 'b')
        .check('j', '/y', pass(['minute', 1, 60, 0, 60], ['ten', 1, 10, 0, 10]))
        .check(
          'j',
          '/y',
          refuse(['minute', 'ten'], 60, ['minute', 1, 60, 0, 60], ['ten', 1, 10, 0, 10]),
        )
        .advance(30_000)
        .check('j', '/y', refuse(['minute'], 30, ['minute', 1, 60, 0, 30], ['ten', 1, 10, 0, 10]))
        .done(),
    },
    {
      name: 'the exact header text',
      tier: 'core',
      trap: 'header-syntax',
      hint: 'The headers are structured fields, read by machines: every name a quoted string (a " or \\ inside escaped with a \\), parameters q then w, and r then t, items joined by a comma and one space, header names spelled exactly RateLimit-Policy, RateLimit and Retry-After.',
      fixtures: world(0, { a: [3, 1], b: [2, 60], c: [1, 3600] }),
      ...script()
        .gateway(
          {
            std: {
              global: [P('back\\slash', 2, 60, 'b'), P('plain name', 1, 3600, 'c')],
              endpoints: { '/q': [P('say "hi"', 3, 1, 'a')] },
            },
          },
          'std',
        )
        .check('k', '/q', {
          allowed: true,
          status: 200,
          headers: {
            'RateLimit-Policy': String.raw`"say \"hi\"";q=3;w=1, "back\\slash";q=2;w=60, "plain name";q=1;w=3600`,
            RateLimit: String.raw`"say \"hi\"";r=2;t=1, "back\\slash";r=1;t=60, "plain name";r=0;t=3600`,
          },
          violated: [],
        })
        .check('k', '/q', {
          allowed: false,
          status: 429,
          headers: {
            'RateLimit-Policy': String.raw`"say \"hi\"";q=3;w=1, "back\\slash";q=2;w=60, "plain name";q=1;w=3600`,
            RateLimit: String.raw`"say \"hi\"";r=1;t=1, "back\\slash";r=0;t=60, "plain name";r=0;t=3600`,
            'Retry-After': '3600',
          },
          violated: ['plain name'],
        })
        .done(),
    },
    {
      name: 'moving a client to another tier',
      tier: 'core',
      trap: 'tier-switch',
      hint: 'A client’s tier is whatever setTier last said, from its very next request, and only that tier’s policies apply: nothing learned while it was in its old tier decides anything in the new one.',
      fixtures: world(0, { free: [1, 60], pro: [3, 60] }),
      ...script()
        .gateway(
          { free: { global: [P('free', 1, 60)] }, pro: { global: [P('pro', 3, 60)] } },
          'free',
        )
        .check('k', '/x', pass(['free', 1, 60, 0, 60]))
        .check('k', '/x', refuse(['free'], 60, ['free', 1, 60, 0, 60]))
        .setTier('k', 'pro')
        .check('k', '/x', pass(['pro', 3, 60, 2, 60]))
        .check('j', '/x', pass(['free', 1, 60, 0, 60]))
        .setTier('m', 'pro')
        .check('m', '/x', pass(['pro', 3, 60, 2, 60]))
        .check('k', '/x', pass(['pro', 3, 60, 1, 60]))
        .setTier('k', 'free')
        .check('k', '/x', refuse(['free'], 60, ['free', 1, 60, 0, 60]))
        .setTier('k', 'pro')
        .check('k', '/x', pass(['pro', 3, 60, 0, 60]))
        .charges('free', [charge('k', 1), charge('j', 1)])
        .done(),
    },
    {
      name: 'an endpoint the tier does not name',
      tier: 'core',
      trap: 'unknown-endpoint',
      hint: 'An endpoint the client’s tier has no policies for is not an error: only the tier’s global policies apply. A tier may name no endpoints at all.',
      fixtures: world(0, { search: [1, 10], minute: [3, 60], lite: [5, 60] }),
      ...script()
        .gateway(
          {
            std: { global: [P('minute', 3, 60)], endpoints: { '/search': [P('search', 1, 10)] } },
            lite: { global: [P('lite', 5, 60)] },
          },
          'std',
        )
        .check('k', '/Search', pass(['minute', 3, 60, 2, 60]))
        .check('k', '/search/', pass(['minute', 3, 60, 1, 60]))
        .check('k', '', pass(['minute', 3, 60, 0, 60]))
        .setTier('j', 'lite')
        .check('j', '/search', pass(['lite', 5, 60, 4, 60]))
        .charges('search', [])
        .done(),
    },
    {
      name: 'a tier with no policy for the request',
      tier: 'core',
      trap: 'no-policies',
      hint: 'With no policy to ask, nothing can refuse: the request is allowed, and there is no limit to describe, so no RateLimit header is written at all (not even an empty one).',
      fixtures: world(0, { search: [1, 10] }),
      ...script()
        .gateway(
          {
            open: { global: [] },
            std: { global: [], endpoints: { '/search': [P('search', 1, 10)] } },
          },
          'open',
        )
        .check('k', '/search', pass())
        .check('k', '/search', pass())
        .setTier('k', 'std')
        .check('k', '/home', pass())
        .check('k', '/search', pass(['search', 1, 10, 0, 10]))
        .done(),
    },
    {
      name: 'limiters are asked with the cost, always',
      tier: 'core',
      trap: 'explicit-cost',
      hint: 'Every limiter call carries the request’s cost, 1 when check was given none: the spies record exactly what your gateway passed.',
      fixtures: world(0, { ep: [2, 10], all: [5, 60] }),
      ...script()
        .gateway(
          { std: { global: [P('all', 5, 60)], endpoints: { '/e': [P('ep', 2, 10)] } } },
          'std',
        )
        .check('k', '/e', pass(['ep', 2, 10, 1, 10], ['all', 5, 60, 4, 60]))
        .charges('ep', [charge('k', 1)])
        .charges('all', [charge('k', 1)])
        .check('k', '/e', refuse(['ep'], 10, ['ep', 2, 10, 1, 10], ['all', 5, 60, 2, 60]), 2)
        .check('k', '/e', pass(['ep', 2, 10, 0, 10], ['all', 5, 60, 3, 60]), 1)
        .charges('ep', [charge('k', 1)])
        .charges('all', [charge('k', 1)])
        .done(),
    },
    {
      name: 'two gateways at once',
      tier: 'core',
      trap: 'instance-isolation',
      hint: 'Each gateway keeps its own tier assignments. Is any of your state shared by every instance?',
      fixtures: world(0, {
        'a-free': [1, 60],
        'a-pro': [2, 60],
        'b-free': [1, 60],
        'b-pro': [2, 60],
      }),
      ...script()
        .gateway(
          {
            free: { global: [P('free', 1, 60, 'a-free')] },
            pro: { global: [P('pro', 2, 60, 'a-pro')] },
          },
          'free',
        )
        .gateway(
          {
            free: { global: [P('free', 1, 60, 'b-free')] },
            pro: { global: [P('pro', 2, 60, 'b-pro')] },
          },
          'free',
        )
        .on(0)
        .setTier('k', 'pro')
        .check('k', '/x', pass(['pro', 2, 60, 1, 60]))
        .on(1)
        .check('k', '/x', pass(['free', 1, 60, 0, 60]))
        .check('k', '/x', refuse(['free'], 60, ['free', 1, 60, 0, 60]))
        .on(0)
        .check('k', '/x', pass(['pro', 2, 60, 0, 60]))
        .done(),
    },
    {
      name: 'a clock far from today',
      tier: 'core',
      trap: 'injected-clock',
      hint: 'The gateway is handed a clock, and that clock is the only time there is: t and Retry-After count from its reading, never from the real time.',
      fixtures: world(7, { m: [1, 60] }),
      ...script()
        .gateway({ std: { global: [P('m', 1, 60)] } }, 'std')
        .check('k', '/x', pass(['m', 1, 60, 0, 60]))
        .advance(59_000)
        .check('k', '/x', refuse(['m'], 1, ['m', 1, 60, 0, 1]))
        .done(),
    },
    {
      name: 'random traffic over random tiers, against the reference',
      tier: 'core',
      trap: 'random-core',
      hint: 'A random sequence of checks, clock moves and tier moves over random tiers disagrees with the reference, in a decision or in what the spies were charged; the counterexample shows the smallest one found.',
      fixtures: POOL_FIXTURES,
      property: { calls: randomTraffic(false), numRuns: 30 },
    },
    {
      name: 'a cost no quota can hold',
      tier: 'follow-up',
      trap: 'never-retry',
      hint: 'Follow-up: a policy whose retryAt is Infinity will never allow this request, however long the client waits. Promising a time would be a lie, so no Retry-After is written when any refusing policy says never.',
      fixtures: world(0, { upload: [5, 60], minute: [3, 60] }),
      ...script()
        .gateway(
          { std: { global: [P('minute', 3, 60)], endpoints: { '/upload': [P('upload', 5, 60)] } } },
          'std',
        )
        .check('k', '/upload', pass(['upload', 5, 60, 4, 60], ['minute', 3, 60, 2, 60]))
        .check(
          'k',
          '/upload',
          refuse(['minute'], null, ['upload', 5, 60, 0, 60], ['minute', 3, 60, 2, 60]),
          4,
        )
        .check(
          'k',
          '/upload',
          refuse(['upload', 'minute'], null, ['upload', 5, 60, 4, 60], ['minute', 3, 60, 2, 60]),
          6,
        )
        .check('k', '/upload', pass(['upload', 5, 60, 2, 60], ['minute', 3, 60, 0, 60]), 2)
        .check(
          'k',
          '/upload',
          refuse(['upload', 'minute'], null, ['upload', 5, 60, 2, 60], ['minute', 3, 60, 0, 60]),
          4,
        )
        .check(
          'k',
          '/upload',
          refuse(['upload', 'minute'], 60, ['upload', 5, 60, 2, 60], ['minute', 3, 60, 0, 60]),
          3,
        )
        .charges('minute', [charge('k', 1), charge('k', 2)])
        .done(),
    },
    {
      name: 'a store that answers a negative remaining',
      tier: 'follow-up',
      trap: 'remaining-never-negative',
      hint: 'Follow-up: r is a count of requests left, so it is never below 0, whatever a limiter (a shared store that over-counted, say) reports.',
      fixtures: world(
        1000,
        {},
        {
          store: { allowed: false, remaining: -3, resetAt: 5000, retryAt: 5000 },
        },
      ),
      ...script()
        .gateway({ std: { global: [P('store', 10, 60)] } }, 'std')
        .check('k', '/x', refuse(['store'], 4, ['store', 10, 60, 0, 4]))
        .answer('store', { allowed: true, remaining: -1, resetAt: 5000, retryAt: 1000 })
        .check('k', '/x', pass(['store', 10, 60, 0, 4]))
        .answer('store', { allowed: true, remaining: 7, resetAt: 5000, retryAt: 1000 })
        .check('k', '/x', pass(['store', 10, 60, 7, 4]))
        .done(),
    },
    {
      name: 't=0 is a value',
      tier: 'follow-up',
      trap: 'reset-zero-kept',
      hint: 'Follow-up: t=0 means the quota is back right now; it is a value like any other and is written. A reset time already past is 0 too, never negative.',
      fixtures: world(
        2000,
        { cap: [2, 60] },
        {
          store: { allowed: true, remaining: 4, resetAt: 2000, retryAt: 2000 },
        },
      ),
      ...script()
        .gateway(
          { std: { global: [P('store', 5, 60)], endpoints: { '/big': [P('cap', 2, 60)] } } },
          'std',
        )
        .check('k', '/x', pass(['store', 5, 60, 4, 0]))
        .answer('store', { allowed: true, remaining: 4, resetAt: 500, retryAt: 2000 })
        .check('k', '/x', pass(['store', 5, 60, 4, 0]))
        .check('j', '/big', refuse(['cap'], null, ['cap', 2, 60, 2, 0], ['store', 5, 60, 4, 0]), 3)
        .answer('store', { allowed: true, remaining: 4, resetAt: 2001, retryAt: 2000 })
        .check('k', '/x', pass(['store', 5, 60, 4, 1]))
        .done(),
    },
    {
      name: 'a retry time already reached',
      tier: 'follow-up',
      trap: 'retry-after-rounds-up',
      hint: 'Follow-up: Retry-After is at least 1 on every refusal. A retry time that is now, or already past, still asks the client to wait a moment, never 0 or a negative number of seconds.',
      fixtures: world(
        2000,
        {},
        {
          store: { allowed: false, remaining: 0, resetAt: 3000, retryAt: 2000 },
        },
      ),
      ...script()
        .gateway({ std: { global: [P('store', 1, 1)] } }, 'std')
        .check('k', '/x', refuse(['store'], 1, ['store', 1, 1, 0, 1]))
        .answer('store', { allowed: false, remaining: 0, resetAt: 3000, retryAt: 500 })
        .check('k', '/x', refuse(['store'], 1, ['store', 1, 1, 0, 1]))
        .answer('store', { allowed: false, remaining: 0, resetAt: 3000, retryAt: 2001 })
        .check('k', '/x', refuse(['store'], 1, ['store', 1, 1, 0, 1]))
        .done(),
    },
    {
      name: 'clients, endpoints and tiers named like object properties',
      tier: 'follow-up',
      trap: 'prototype-ids',
      hint: 'Follow-up: a client id, an endpoint and a tier name are any strings, including names every JavaScript object already answers to. Look them up only among what was really given or set.',
      fixtures: world(0, { m: [2, 60], p: [3, 60] }),
      ...script()
        .gateway(
          {
            free: { global: [P('m', 2, 60)], endpoints: { '/x': [] } },
            pro: { global: [P('p', 3, 60)] },
          },
          'free',
        )
        .check('__proto__', '/x', pass(['m', 2, 60, 1, 60]))
        .check('toString', 'toString', pass(['m', 2, 60, 1, 60]))
        .check('constructor', '__proto__', pass(['m', 2, 60, 1, 60]))
        .check('hasOwnProperty', 'constructor', pass(['m', 2, 60, 1, 60]))
        .setTier('toString', 'pro')
        .check('toString', 'valueOf', pass(['p', 3, 60, 2, 60]))
        .setTier('__proto__', 'valueOf', THROWS)
        .setTier('k', 'toString', THROWS)
        .setTier('k', '__proto__', THROWS)
        .check('__proto__', '/x', pass(['m', 2, 60, 0, 60]))
        .check('k', 'hasOwnProperty', pass(['m', 2, 60, 1, 60]))
        .gateway({ free: { global: [] } }, 'constructor', THROWS)
        .done(),
    },
    {
      name: 'bad costs and unknown tiers',
      tier: 'follow-up',
      trap: 'bad-input',
      hint: 'Follow-up: a cost is a positive whole number; throw a RangeError for anything else before any limiter is asked, so nothing is charged. A default tier or a setTier naming a tier that does not exist is a RangeError too, and changes nothing.',
      fixtures: world(
        0,
        {},
        {
          quota: { allowed: true, remaining: 5, resetAt: 60_000, retryAt: 0 },
        },
      ),
      ...(() => {
        // A scripted limiter throws for no cost: only the gateway's own check stops a bad one, and
        // the spy shows whether any limiter was asked at all.
        const tiers = { std: { global: [P('quota', 9, 60)] }, open: { global: [] } };
        const s = script().gateway(tiers, 'gold', THROWS).gateway(tiers, 'std');
        for (const cost of [0, -1, 1.5, NaN, Infinity, -Infinity]) s.check('k', '/x', THROWS, cost);
        return s
          .calls('quota', [])
          .setTier('k', 'gold', THROWS)
          .setTier('k', '', THROWS)
          .check('k', '/x', pass(['quota', 9, 60, 5, 60]))
          .setTier('k', 'open')
          .check('k', '/x', THROWS, 0)
          .check('k', '/x', pass())
          .done();
      })(),
    },
    {
      name: 'random traffic with costs, prototype names and a clock that steps back',
      tier: 'follow-up',
      trap: 'random-follow-up',
      hint: 'Follow-up: a random sequence with costs above the quotas and bad ones, clients, endpoints and tiers named like object properties, policy names to escape and a clock that steps back disagrees with the reference, in a decision or in what the spies were charged.',
      fixtures: POOL_FIXTURES,
      property: { calls: randomTraffic(true), numRuns: 30 },
    },
    {
      name: `${spaced(MANY)} clients in two tiers, then ${MANY_CHECKS} checks`,
      tier: 'follow-up',
      trap: 'many-clients',
      hint: {
        slow: 'Follow-up: a gateway serves every client there is, so no check may cost more as clients come: find a client’s tier in O(1) (a hash map from client to tier), and let each check cost only its few policies.',
        wrong:
          'Follow-up: with many clients in two tiers, a check disagrees with the reference. Each client is in the tier setTier last gave it, or the default one.',
      },
      describe: `RateLimitGateway({free: 5 per minute, pro: 50 per minute, each a window limiter}, "free", clock); setTier for clients #0 … #${spaced(MANY - 1)} (ids of ${ID_LENGTH} characters: a tenant path, then the number), the odd ones to "pro", the even ones to "free"; then ${MANY_CHECKS} checks, each by a client not seen before, spread over all of them`,
      timeLimitMs: MANY_LIMIT_MS,
      fixtures: {
        clock: fakeClock(0),
        'free-limiter': windowLimiter(CLOCK, 5, 60_000),
        'pro-limiter': windowLimiter(CLOCK, 50, 60_000),
      },
      generate(emit) {
        const tiers = {
          free: { global: [P('minute', 5, 60, 'free-limiter')] },
          pro: { global: [P('pro-minute', 50, 60, 'pro-limiter')] },
        };
        emit({ method: CLASS, args: [tiers, 'free', CLOCK], expected: null });
        const move = { method: 'setTier', args: ['', ''], expected: null as unknown };
        for (let i = 0; i < MANY; i++) {
          move.args[0] = clientId(i);
          move.args[1] = i % 2 === 1 ? 'pro' : 'free';
          emit(move);
        }
        const free = pass(['minute', 5, 60, 4, 60]);
        const pro = pass(['pro-minute', 50, 60, 49, 60]);
        const check = { method: 'check', args: ['', '/search'], expected: free as unknown };
        for (let j = 0; j < MANY_CHECKS; j++) {
          // A step coprime with the number of clients: every check is by a client new to it.
          const i = (j * 7919) % MANY;
          check.args[0] = clientId(i);
          check.expected = i % 2 === 1 ? pro : free;
          emit(check);
        }
      },
    },
  ],
});
