// Hidden suite for leaky-bucket-queue. Examples must match the statement (a test checks it); hidden
// cases each aim at one trap and carry a hint that points at the idea without giving the code.
//
// Every case gets a fake clock (`fixture('clock')` in the constructor's arguments) and moves it
// with `clock.advance` / `clock.set`. Answers are `{ allowed, remaining, resetAt, retryAt, startAt }`;
// `startAt` may be fractional and is compared within 1e-6 ms, every other field exactly. The fixed
// cases are written out by hand (test/design/leaky-bucket-queue.test.ts works each of them out
// again with an exact model of the contract's definitions); the long ones take their answers from
// the reference, which that test holds to the same model.
//
// Core cases keep to whole rates, one key (two in key-isolation), one queue (two in
// instance-isolation and max-input) and a clock that only moves forward, below 10^7 ms. Fractional
// rates, keys named like object properties, a clock that steps back, bad input and memory are
// follow-ups.
import fc from 'fast-check';
import { fakeClock } from '../../harness/fixtures.ts';
import { defineSuite, fixture, type Call, type Encoded } from '../../harness/suite.ts';
import {
  limiterPicture,
  longKey,
  HeldClock,
  draws,
  type Settings,
} from '../../harness/limiter-script.ts';
import {
  BAD_RATES,
  BAD_WHOLE,
  contractCases,
  LimiterScript,
  PROPERTY_KEYS,
  randomSteps,
} from '../../harness/limiter-contract.ts';
import { LeakyBucketQueue, type QueueResult } from './solution.ts';

const CLASS = 'LeakyBucketQueue';
const CLOCK = fixture('clock');

/** An accepted request's answer at `now`: retryAt is now. */
const ok = (startAt: number, remaining: number, resetAt: number, now: number): QueueResult => ({
  allowed: true,
  remaining,
  resetAt,
  retryAt: now,
  startAt,
});

/** A refused request's answer: no free slot, so remaining is 0. */
const no = (startAt: number, resetAt: number, retryAt: number): QueueResult => ({
  allowed: false,
  remaining: 0,
  resetAt,
  retryAt,
  startAt,
});

/** Start j of a chain that began at `anchor`, at `rate` per second (for fractional intervals). */
const nth = (anchor: number, j: number, rate: number): number => anchor + (j * 1000) / rate;

/** The calls of a case, on leaky-bucket queues. */
class Script extends LimiterScript {
  /** A new queue on the case's clock; later calls go to it. */
  queue(capacity: number, leakPerSecond: number, expected: unknown = null): this {
    return this.build([capacity, leakPerSecond], expected);
  }

  submit(key: string, expected: unknown): this {
    return this.call('submit', [key], expected);
  }
}

const script = (): Script => new Script(CLASS);

/** The contract's cases asked alike in every limiter kata, in this kata's words. */
const contract = contractCases({ thing: 'queue' });

// The largest core input: four queues with different settings on one clock, one key each, calls
// until MAX_CALLS while the clock moves in steps of every size. The reference answers.
const MAX_CALLS = 1000;
function maxInput(): Encoded {
  const knobs: [capacity: number, leakPerSecond: number][] = [
    [1, 1000],
    [3, 3],
    [100, 7],
    [10, 1],
  ];
  const clock = new HeldClock();
  const s = script();
  const refs = knobs.map(([capacity, rate]) => {
    s.queue(capacity, rate);
    return new LeakyBucketQueue(capacity, rate, clock);
  });
  const next = draws(2025);
  while (s.methods.length < MAX_CALLS) {
    const roll = next(100);
    if (roll < 20) {
      const ms = roll < 12 ? next(5) : roll < 18 ? next(1500) : 10_000 + next(60_000);
      clock.time += ms;
      s.advance(ms);
      continue;
    }
    const b = next(knobs.length);
    s.on(b).submit('user', (refs[b] as LeakyBucketQueue).submit('user'));
  }
  return s.done();
}

/**
 * Random sequences on one queue. Core: one key, a whole rate, the clock only moving forward (a
 * first `clock.set` picks the start). Follow-up: several keys (one named like an inherited object
 * property), fractional rates, and `clock.set` stepping back as well.
 */
function randomCalls(followUp: boolean): fc.Arbitrary<Encoded> {
  const keys = followUp ? ['a', 'b', '__proto__'] : ['k'];
  const rates = followUp ? [0.769, 2.5, 3, 7.3, 40, 333.3] : [1, 2, 3, 7, 10, 250, 1000];
  return fc
    .record({
      capacity: fc.integer({ min: 1, max: 4 }),
      rate: fc.constantFrom(...rates),
      start: fc.integer({ min: 0, max: 5000 }),
    })
    .chain(({ capacity, rate, start }) => {
      const interval = 1000 / rate;
      return randomSteps({
        methods: ['submit'],
        keys,
        cost: fc.constant(undefined),
        advance: fc.integer({ min: 0, max: Math.ceil(2 * interval) + 1 }),
        set: followUp ? fc.integer({ min: 0, max: start + Math.ceil(6 * interval) }) : undefined,
        maxLength: 30,
      }).map((steps) => script().queue(capacity, rate).set(start).steps(steps).done());
    });
}

// The busy chain at a fractional rate: a queue kept busy for CHAIN_CALLS submissions, the clock
// far enough from zero that every addition of the interval rounds, in the same direction each time.
// The reference answers.
const CHAIN_RATE = 0.769;
const CHAIN_CAPACITY = 3;
const CHAIN_START = 2 ** 30 + 12_345;
const CHAIN_CALLS = 300;
function busyChain(emit: (call: Call) => void): void {
  const clock = new HeldClock();
  clock.time = CHAIN_START;
  const ref = new LeakyBucketQueue(CHAIN_CAPACITY, CHAIN_RATE, clock);
  emit({ method: CLASS, args: [CHAIN_CAPACITY, CHAIN_RATE, CLOCK], expected: null });
  const next = draws(769);
  const call: Call = { method: 'submit', args: ['k'], expected: null };
  const advance: Call = { method: 'clock.advance', args: [0], expected: null };
  for (let i = 0; i < CHAIN_CALLS; i++) {
    // Steps of 0 to 2.2 s, about 1.3 s on average: the queue stays busy, now and then full.
    const ms = next(2200);
    clock.time += ms;
    advance.args[0] = ms;
    emit(advance);
    call.expected = ref.submit('k');
    emit(call);
  }
}

// The idle-eviction case. BUSY fills its queue at the start, EVICT_KEYS keys are touched once, the
// clock moves on until all but the last few of their queues have drained, and FRESH calls on new
// keys go by, FRESH_PER_STEP in each step of STEP_MS, while BUSY still has requests waiting
// (its queue drains at 101 s, the traffic ends at about 85 s). At the end BUSY is judged by its
// own queue. The steps are a millisecond shorter than an interval, so that every call finds the
// key added just before it still waiting: a clean-up that passes only one busy key per call then
// never gets past the newest keys to the drained ones, while every call adds a key.
//
// Keys are long (KEY_LENGTH characters, a request line with a tenant and a user), so that a queue
// which keeps every key it has seen keeps about 1.1 KB per judged call: 4000 keys show it over 10×
// a limit of 0.4 MB, while the reference ends with BUSY and the last two steps' keys (12 in each,
// so that those stay under a tenth of the limit). (The issue
// asked for 10^6 keys and 10^5 calls after them; at about a microsecond per judged call that is
// seconds of grading, so the keys are fewer and heavier, as in fixed-window-limiter.)
const EVICT_CAPACITY = 100;
const EVICT_RATE = 1;
const EVICT_INTERVAL = 1000 / EVICT_RATE;
const STEP_MS = EVICT_INTERVAL - 1;
const EVICT_KEYS = 3000;
const EVICT_PER_MS = 3;
const FRESH = 1000;
const FRESH_PER_STEP = 12;
const KEY_LENGTH = 1000;
const BUSY = 'GET /queue?tenant=acme&user=busy';
/** No digits in them, so that no two keys can be equal. */
const OLD_FILLER = 'GET /queue?tenant=acme&user=';
const NEW_FILLER = 'POST /jobs?tenant=acme&user=';

/** Key number j, KEY_LENGTH characters (see longKey). */
const tokenKey = (j: number, filler: string): string => longKey(j, filler, KEY_LENGTH);

function idleEviction(emit: (call: Call) => void): void {
  emit({ method: CLASS, args: [EVICT_CAPACITY, EVICT_RATE, CLOCK], expected: null });
  // BUSY: capacity + 1 at one instant, starts 0, 1 s, … 100 s; the queue has drained at 101 s.
  for (let j = 0; j <= EVICT_CAPACITY; j++) {
    const remaining = j === 0 ? EVICT_CAPACITY : EVICT_CAPACITY - j;
    emit({
      method: 'submit',
      args: [BUSY],
      expected: ok(j * EVICT_INTERVAL, remaining, (j + 1) * EVICT_INTERVAL, 0),
    });
  }
  // A new key's answer at `now`: it starts at once, every slot free.
  let now = 0;
  const fresh = ok(0, EVICT_CAPACITY, EVICT_INTERVAL, 0);
  const call: Call = { method: 'submit', args: [''], expected: fresh };
  const advance: Call = { method: 'clock.advance', args: [0], expected: null };
  const move = (ms: number): void => {
    now += ms;
    advance.args[0] = ms;
    emit(advance);
    fresh.startAt = now;
    fresh.retryAt = now;
    fresh.resetAt = now + EVICT_INTERVAL;
  };
  for (let j = 0; j < EVICT_KEYS; j++) {
    if (j > 0 && j % EVICT_PER_MS === 0) move(1);
    call.args[0] = tokenKey(j, OLD_FILLER);
    emit(call);
  }
  // Every one of those queues has drained but for the last few, which drain a millisecond later.
  move(STEP_MS);
  for (let j = 0; j < FRESH; j++) {
    if (j > 0 && j % FRESH_PER_STEP === 0) move(STEP_MS);
    call.args[0] = tokenKey(j, NEW_FILLER);
    emit(call);
  }
  // BUSY is still busy: the starts up to `now` have left, the rest wait; one more joins the end.
  const started = Math.floor(now / EVICT_INTERVAL) + 1;
  const waiting = EVICT_CAPACITY + 1 - started;
  emit({
    method: 'submit',
    args: [BUSY],
    expected: ok(
      (EVICT_CAPACITY + 1) * EVICT_INTERVAL,
      EVICT_CAPACITY - waiting - 1,
      (EVICT_CAPACITY + 2) * EVICT_INTERVAL,
      now,
    ),
  });
}

/**
 * The picture of a failing case: each request queued or refused as the reference answers it, and
 * how many wait in the key's queue over time (queued, not started yet: submitted at or before t,
 * starting after t), against the capacity.
 */
const picture = limiterPicture({
  takes: 'submit',
  allowedMark: 'queued',
  level: {
    name: 'waiting',
    capacity: ([capacity]: Settings) => capacity as number,
    start() {
      const waits: { from: number; until: number }[] = [];
      return {
        took(t, _cost, answer) {
          // Those started by now are never asked about again (samples come in time order).
          while (waits.length > 0 && (waits[0] as { until: number }).until <= t) waits.shift();
          waits.push({ from: t, until: answer.startAt as number });
        },
        at: (t) => waits.filter((w) => w.from <= t && t < w.until).length,
      };
    },
  },
});

export default defineSuite({
  reference: LeakyBucketQueue,
  picture,
  // startAt may be fractional (1000 / 3 ms apart): within a millionth of a millisecond is exact.
  fieldTolerance: { startAt: 1e-6 },
  // Module-level state shows as cases that fail after others ran, and pass alone.
  sharedStateTrap: 'instance-isolation',
  // The queue must read the clock it is handed, never the real time.
  realTimeTrap: 'injected-clock',
  cases: [
    {
      name: 'statement example',
      tier: 'example',
      trap: null,
      fixtures: { clock: fakeClock(0) },
      ...script()
        .queue(2, 2)
        .submit('api', ok(0, 2, 500, 0))
        .submit('api', ok(500, 1, 1000, 0))
        .submit('api', ok(1000, 0, 1500, 0))
        .submit('api', no(1500, 1500, 500))
        .advance(500)
        .submit('api', ok(1500, 0, 2000, 500))
        .advance(1600)
        .submit('api', ok(2100, 2, 2600, 2100))
        .submit('api', ok(2600, 1, 3100, 2100))
        .done(),
    },
    {
      name: 'statement example 2',
      tier: 'example',
      trap: null,
      fixtures: { clock: fakeClock(1000) },
      ...script()
        .queue(1, 3)
        .submit('a', ok(1000, 1, 1334, 1000))
        .submit('a', ok(nth(1000, 1, 3), 0, 1667, 1000))
        .submit('a', no(nth(1000, 2, 3), 1667, 1334))
        .submit('b', ok(1000, 1, 1334, 1000))
        .set(1334)
        .submit('a', ok(nth(1000, 2, 3), 0, 2000, 1334))
        .done(),
    },
    {
      name: 'a burst after a long idle spell',
      tier: 'core',
      trap: 'no-burst-after-idle',
      hint: 'A queue never lets requests out faster than its rate, however long the key was quiet: a key that comes back after an idle spell gets one request through at once and the rest one interval apart. An idle key must not save anything up.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .queue(3, 10)
        .submit('k', ok(0, 3, 100, 0))
        .submit('k', ok(100, 2, 200, 0))
        .advance(150)
        .submit('k', ok(200, 2, 300, 150))
        .advance(59_850)
        .submit('k', ok(60_000, 3, 60_100, 60_000))
        .submit('k', ok(60_100, 2, 60_200, 60_000))
        .submit('k', ok(60_200, 1, 60_300, 60_000))
        .submit('k', ok(60_300, 0, 60_400, 60_000))
        .submit('k', no(60_400, 60_400, 60_100))
        .advance(250)
        .submit('k', ok(60_400, 1, 60_500, 60_250))
        .advance(300)
        .submit('k', ok(60_550, 3, 60_650, 60_550))
        .submit('k', ok(60_650, 2, 60_750, 60_550))
        .done(),
    },
    {
      name: 'a key drained while another is still busy',
      tier: 'core',
      trap: 'no-burst-after-idle',
      hint: 'A key whose queue has drained starts a new stretch: its next request starts at once, and the one after it a full interval later, even if other keys are still busy and the key was never forgotten. Nothing of its old queue may carry over.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .queue(2, 1)
        .submit('a', ok(0, 2, 1000, 0))
        .submit('x', ok(0, 2, 1000, 0))
        .submit('x', ok(1000, 1, 2000, 0))
        .submit('x', ok(2000, 0, 3000, 0))
        .submit('x', no(3000, 3000, 1000))
        .advance(1500)
        .submit('a', ok(1500, 2, 2500, 1500))
        .submit('a', ok(2500, 1, 3500, 1500))
        .submit('a', ok(3500, 0, 4500, 1500))
        .submit('x', ok(3000, 0, 4000, 1500))
        .done(),
    },
    {
      name: 'starts one interval apart, 1000 / 3 ms',
      tier: 'core',
      trap: 'spacing',
      hint: 'Each accepted request starts exactly one interval (1000 / rate ms, a fraction when the rate does not divide 1000) after the one before it, or at once if the queue is empty. Count from the previous start, not from when the request was sent, and do not round the interval.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .queue(5, 3)
        .submit('k', ok(0, 5, 334, 0))
        .submit('k', ok(nth(0, 1, 3), 4, 667, 0))
        .submit('k', ok(nth(0, 2, 3), 3, 1000, 0))
        .advance(500)
        .submit('k', ok(1000, 3, 1334, 500))
        .advance(490)
        .submit('k', ok(nth(0, 4, 3), 3, 1667, 990))
        .advance(10)
        .submit('k', ok(nth(0, 5, 3), 3, 2000, 1000))
        .advance(1000)
        .submit('k', ok(2000, 5, 2334, 2000))
        .advance(1)
        .submit('k', ok(nth(2000, 1, 3), 4, 2667, 2001))
        .submit('k', ok(nth(2000, 2, 3), 3, 3000, 2001))
        .done(),
    },
    {
      name: 'capacity + 1 at one instant, then full',
      tier: 'core',
      trap: 'queue-full',
      hint: 'capacity counts the requests that wait, not the one that starts right now: at one instant a new key gets capacity + 1 requests accepted, one starting at once and capacity waiting. The next one is refused, with the start it would have had.',
      fixtures: { clock: fakeClock(5000) },
      ...script()
        .queue(3, 1)
        .submit('k', ok(5000, 3, 6000, 5000))
        .submit('k', ok(6000, 2, 7000, 5000))
        .submit('k', ok(7000, 1, 8000, 5000))
        .submit('k', ok(8000, 0, 9000, 5000))
        .submit('k', no(9000, 9000, 6000))
        .submit('k', no(9000, 9000, 6000))
        .advance(999)
        .submit('k', no(9000, 9000, 6000))
        .advance(1)
        .submit('k', ok(9000, 0, 10_000, 6000))
        .submit('k', no(10_000, 10_000, 7000))
        .done(),
    },
    {
      name: 'a slot frees the moment its request starts',
      tier: 'core',
      trap: 'drained-slot',
      hint: 'A request waits until its start time; at that very millisecond it has left the queue and its slot is free. The same goes for the last one: once it has started, the queue is empty and the next request starts at once.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .queue(2, 4)
        .submit('k', ok(0, 2, 250, 0))
        .submit('k', ok(250, 1, 500, 0))
        .submit('k', ok(500, 0, 750, 0))
        .submit('k', no(750, 750, 250))
        .set(249)
        .submit('k', no(750, 750, 250))
        .set(250)
        .submit('k', ok(750, 0, 1000, 250))
        .set(499)
        .submit('k', no(1000, 1000, 500))
        .set(500)
        .submit('k', ok(1000, 0, 1250, 500))
        .set(1249)
        .submit('k', ok(1250, 1, 1500, 1249))
        .set(1500)
        .submit('k', ok(1500, 2, 1750, 1500))
        .done(),
    },
    {
      name: 'refused requests in a row',
      tier: 'core',
      trap: 'rejected-not-queued',
      hint: 'A refused request is not queued: it takes no slot and moves no later start. Its answer says when it would have started, so a client can decide to wait, but the queue stays as it was.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .queue(1, 5)
        .submit('k', ok(0, 1, 200, 0))
        .submit('k', ok(200, 0, 400, 0))
        .submit('k', no(400, 400, 200))
        .advance(50)
        .submit('k', no(400, 400, 200))
        .submit('k', no(400, 400, 200))
        .advance(100)
        .submit('k', no(400, 400, 200))
        .advance(50)
        .submit('k', ok(400, 0, 600, 200))
        .submit('k', no(600, 600, 400))
        .advance(400)
        .submit('k', ok(600, 1, 800, 600))
        .done(),
    },
    {
      name: 'two keys take turns',
      tier: 'core',
      trap: 'key-isolation',
      hint: 'Every key has its own queue: what one key submits never delays or refuses another.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .queue(1, 2)
        .submit('alice', ok(0, 1, 500, 0))
        .submit('alice', ok(500, 0, 1000, 0))
        .submit('alice', no(1000, 1000, 500))
        .advance(100)
        .submit('bob', ok(100, 1, 600, 100))
        .submit('alice', no(1000, 1000, 500))
        .submit('bob', ok(600, 0, 1100, 100))
        .submit('bob', no(1100, 1100, 600))
        .advance(400)
        .submit('alice', ok(1000, 0, 1500, 500))
        .submit('bob', no(1100, 1100, 600))
        .done(),
    },
    {
      name: 'two queues on one clock',
      tier: 'core',
      trap: 'instance-isolation',
      hint: 'Each queue must keep its own state. Is any of yours shared by every instance?',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .queue(1, 1)
        .queue(2, 4)
        .on(0)
        .submit('k', ok(0, 1, 1000, 0))
        .on(1)
        .submit('k', ok(0, 2, 250, 0))
        .submit('k', ok(250, 1, 500, 0))
        .on(0)
        .submit('k', ok(1000, 0, 2000, 0))
        .submit('k', no(2000, 2000, 1000))
        .advance(250)
        .on(1)
        .submit('k', ok(500, 1, 750, 250))
        .on(0)
        .submit('k', no(2000, 2000, 1000))
        .done(),
    },
    contract(
      'injected-clock',
      7,
      script()
        .queue(1, 1)
        .submit('k', ok(7, 1, 1007, 7))
        .submit('k', ok(1007, 0, 2007, 7))
        .advance(999)
        .submit('k', no(2007, 2007, 1007))
        .advance(1)
        .submit('k', ok(2007, 0, 3007, 1007))
        .advance(60_000)
        .submit('k', ok(61_007, 1, 62_007, 61_007))
        .done(),
    ),
    {
      name: 'resetAt and retryAt, 1000 / 3 ms apart',
      tier: 'core',
      trap: 'reset-and-retry',
      hint: 'Both are whole milliseconds. retryAt is now when accepted, and otherwise the first millisecond at which a slot is free again: when the first waiting request starts. resetAt is the first millisecond at which the key is as good as new: when its queue has fully drained, one interval after the last start. Round up.',
      fixtures: { clock: fakeClock(1234) },
      ...script()
        .queue(2, 3)
        .submit('k', ok(1234, 2, 1568, 1234))
        .submit('k', ok(nth(1234, 1, 3), 1, 1901, 1234))
        .submit('k', ok(nth(1234, 2, 3), 0, 2234, 1234))
        .submit('k', no(2234, 2234, 1568))
        .set(1567)
        .submit('k', no(2234, 2234, 1568))
        .set(1568)
        .submit('k', ok(2234, 0, 2568, 1568))
        .set(2567)
        .submit('k', ok(nth(1234, 4, 3), 1, 2901, 2567))
        .done(),
    },
    {
      name: `${MAX_CALLS} calls on four queues`,
      tier: 'core',
      trap: 'max-input',
      hint: 'The largest core input: four queues with different capacities and rates (1 ms to 1 s apart), the clock moving in small and large steps. Check the edge cases again.',
      fixtures: { clock: fakeClock(0) },
      ...maxInput(),
    },
    contract('random-core', 0, { property: { calls: randomCalls(false), numRuns: 30 } }),
    contract(
      'prototype-keys',
      0,
      (() => {
        const s = script().queue(1, 1);
        for (const key of PROPERTY_KEYS) s.submit(key, ok(0, 1, 1000, 0));
        for (const key of PROPERTY_KEYS) s.submit(key, ok(1000, 0, 2000, 0));
        for (const key of PROPERTY_KEYS) s.submit(key, no(2000, 2000, 1000));
        return s.done();
      })(),
    ),
    {
      name: 'the clock steps back',
      tier: 'follow-up',
      trap: 'clock-backwards',
      hint: 'Follow-up: keep one high-water mark of the clock for the whole queue, raised by every call. A reading below it acts as the mark: no request starts in the past, and no slot is taken again.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .queue(1, 1)
        .submit('a', ok(0, 1, 1000, 0))
        .set(1500)
        .submit('a', ok(1500, 1, 2500, 1500))
        .submit('a', ok(2500, 0, 3500, 1500))
        .set(900)
        .submit('a', no(3500, 3500, 2500))
        .submit('b', ok(1500, 1, 2500, 1500))
        .set(2600)
        .submit('a', ok(3500, 0, 4500, 2600))
        .set(2000)
        .submit('b', ok(2600, 1, 3600, 2600))
        .submit('b', ok(3600, 0, 4600, 2600))
        .set(3000)
        .submit('c', ok(3000, 1, 4000, 3000))
        .done(),
    },
    {
      name: 'settings out of range',
      tier: 'follow-up',
      trap: 'bad-input',
      hint: 'Follow-up: capacity is a positive whole number, and leakPerSecond a positive finite number (fractions allowed). Throw a RangeError for anything else, before anything is built.',
      fixtures: { clock: fakeClock(0) },
      // A constructor that throws leaves no instance: each bad one takes an index of its own.
      ...script()
        .badSettings([2, 1], [BAD_WHOLE, BAD_RATES])
        .queue(2, 0.5)
        .submit('k', ok(0, 2, 2000, 0))
        .submit('k', ok(2000, 1, 4000, 0))
        .done(),
    },
    {
      name: 'rates that are fractions of a request per second',
      tier: 'follow-up',
      trap: 'fractional-rate',
      hint: 'Follow-up: leakPerSecond may be a fraction, such as 0.769 (one request every 1300.39 ms) or 2.5. The interval is still 1000 / leakPerSecond, and startAt carries its fraction.',
      fixtures: { clock: fakeClock(10_000) },
      ...script()
        .queue(2, 0.769)
        .submit('k', ok(10_000, 2, 11_301, 10_000))
        .submit('k', ok(nth(10_000, 1, 0.769), 1, 12_601, 10_000))
        .submit('k', ok(nth(10_000, 2, 0.769), 0, 13_902, 10_000))
        .submit('k', no(nth(10_000, 3, 0.769), 13_902, 11_301))
        .set(11_301)
        .submit('k', ok(nth(10_000, 3, 0.769), 0, 15_202, 11_301))
        .set(20_000)
        .submit('k', ok(20_000, 2, 21_301, 20_000))
        .queue(1, 2.5)
        .submit('k', ok(20_000, 1, 20_400, 20_000))
        .submit('k', ok(20_400, 0, 20_800, 20_000))
        .submit('k', no(20_800, 20_800, 20_400))
        // 9.28 a second: start 29 of a chain falls exactly 3125 ms after its first, where
        // 3125 · 9.28 / 1000 comes out as 28.999…: counting the starts by that product alone
        // misses the one that starts right then, and remaining comes out one short. The client
        // keeps the queue full, sending a request each time a slot frees.
        .queue(3, 9.28)
        .then((s) => {
          const start = (j: number): number => nth(20_000, j, 9.28);
          for (let j = 0; j < 4; j++) {
            s.submit('k', ok(start(j), 3 - j, Math.ceil(start(j + 1)), 20_000));
          }
          for (let j = 1; j <= 28; j++) {
            const now = Math.ceil(start(j));
            s.set(now).submit('k', ok(start(j + 3), 0, Math.ceil(start(j + 4)), now));
          }
          s.set(23_124).submit('k', no(start(32), Math.ceil(start(32)), 23_125));
          s.set(23_125).submit('k', ok(start(32), 0, Math.ceil(start(33)), 23_125));
        })
        .done(),
    },
    {
      name: 'starts that fall exactly on a whole millisecond at 9.28 and 0.009 per second',
      tier: 'follow-up',
      trap: 'fractional-rate',
      hint: 'Follow-up: a rate is the decimal it is written as. At 9.28 a second the interval is 100000 / 928 ms, and start 145 of a busy run is exactly 15625 ms after the first: that request leaves the queue at that very millisecond. 145000 / 9.28 in floating point comes out a hair above 15625; keep times as whole numbers of a unit small enough that every start is one.',
      fixtures: { clock: fakeClock(0) },
      ...(() => {
        // Both queues start at 0: the floating-point starts err only near zero, where adding the
        // anchor cannot round the error away, so that is where a float solution shows it.
        const s = script();
        // 9.28 = 928/100 a second: start j is j · 100000 / 928 ms, a whole ms when 928 divides it.
        const quick = (j: number): number => (j * 100_000) / 928;
        // 0.009 = 9/1000 a second: start j is j · 10^6 / 9 ms; start 9 is exactly 10^6.
        const slow = (j: number): number => (j * 1_000_000) / 9;
        const up = Math.ceil;
        s.queue(1, 9.28).queue(9, 0.009);
        // Nine places at 0.009: a burst of ten at 0, the ninth's resetAt is start 9, 10^6 ms.
        for (let j = 0; j < 10; j++) s.submit('k', ok(slow(j), 9 - j, up(slow(j + 1)), 0));
        s.submit('k', no(slow(10), up(slow(10)), up(slow(1))));
        // One place at 9.28: the client sends a request each time the place frees, 145 in all.
        s.on(0)
          .submit('k', ok(0, 1, up(quick(1)), 0))
          .submit('k', ok(quick(1), 0, up(quick(2)), 0));
        for (let j = 1; j <= 144; j++) {
          const now = up(quick(j));
          s.set(now).submit('k', ok(quick(j + 1), 0, up(quick(j + 2)), now));
        }
        // Start 145 (15625 ms) is the one waiting: a request a millisecond before it is refused,
        // to come back at 15625; at 15625 the place is free.
        s.set(15_624).submit('k', no(quick(146), up(quick(146)), 15_625));
        s.set(15_625).submit('k', ok(quick(146), 0, up(quick(147)), 15_625));
        // At 10^6 ms start 9 of the slow queue leaves: the new request is the only one waiting.
        return s
          .on(1)
          .set(1_000_000)
          .submit('k', ok(slow(10), 8, up(slow(11)), 1_000_000))
          .done();
      })(),
    },
    {
      name: `a queue kept busy for ${CHAIN_CALLS} requests at 0.769 per second`,
      tier: 'follow-up',
      trap: 'fractional-rate',
      hint: 'Follow-up: on a long busy stretch every start must still be exact. Adding the interval to the previous start over and over rounds a little each time, and the errors add up; work each start out from where the stretch began.',
      describe: `LeakyBucketQueue(${CHAIN_CAPACITY}, ${CHAIN_RATE}, clock), the clock at 2^30 + 12345 ms; ${CHAIN_CALLS} times: the clock moves 0 to 2.2 s on, and submit("k")`,
      fixtures: { clock: fakeClock(CHAIN_START) },
      generate: busyChain,
    },
    {
      name: 'random calls with fractional rates, keys and a clock that steps back',
      tier: 'follow-up',
      trap: 'random-follow-up',
      hint: 'Follow-up: a random sequence with several keys, a fractional rate and a clock that sometimes steps back disagrees with the reference.',
      fixtures: { clock: fakeClock(0) },
      property: { calls: randomCalls(true), numRuns: 30 },
    },
    {
      name: `${EVICT_KEYS} keys gone quiet, one still busy, then fresh traffic`,
      tier: 'follow-up',
      trap: 'idle-eviction',
      hint: {
        wrong:
          'Follow-up: a key may be forgotten only once its queue has drained. This one still had requests waiting when the traffic went by, and it must still be judged by its own queue.',
        memory:
          'Follow-up: a key whose queue has drained answers like a key never seen, so its state can go. Drop such keys as the calls go by, a little work per call, and do not let one key that is still busy keep the rest alive.',
        slow: 'Follow-up: forgetting drained keys must cost a little per call, not a pass over every key on every call.',
      },
      describe: `LeakyBucketQueue(${EVICT_CAPACITY}, ${EVICT_RATE}, clock), the clock at 0; ${EVICT_CAPACITY + 1} submits of "${BUSY}"; then one submit on each of ${EVICT_KEYS} keys of ${KEY_LENGTH} characters, ${EVICT_PER_MS} per ms; the clock moves ${STEP_MS} ms on; then ${FRESH} submits on new keys, ${FRESH_PER_STEP} in each step of ${STEP_MS} ms; then "${BUSY}" once more`,
      // No design here is caught by time (the ones that keep too much fail on memory first); the
      // limit is a guard, set at 10x what the reference takes on a busy machine (~200-300 ms,
      // nearly all of it the judge passing 1000-character keys).
      timeLimitMs: 3000,
      retainedLimitMb: 0.4,
      fixtures: { clock: fakeClock(0) },
      generate: idleEviction,
    },
  ],
});
