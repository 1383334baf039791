// Hidden suite for 2034. Examples must match the statement (a test checks it); hidden cases each aim
// at one trap and carry a hint that points at the idea without giving the code.
import fc from 'fast-check';
import { defineSuite, type Call, type Encoded } from '../../harness/suite.ts';
import { StockPrice } from './solution.ts';

type Query = 'current' | 'maximum' | 'minimum';

/** One call: a record (timestamp, price), or a query expecting a price. */
type Step = ['update', number, number] | [Query, number];

const update = (timestamp: number, price: number): Step => ['update', timestamp, price];
const current = (price: number): Step => ['current', price];
const maximum = (price: number): Step => ['maximum', price];
const minimum = (price: number): Step => ['minimum', price];

/** One StockPrice driven through the steps, in order. */
function stock(steps: Step[]): Encoded {
  return {
    methods: ['StockPrice', ...steps.map((step) => step[0])],
    args: [[], ...steps.map((step) => (step[0] === 'update' ? [step[1], step[2]] : []))],
    expected: [null, ...steps.map((step) => (step[0] === 'update' ? null : step[1]))],
  };
}

/**
 * Random call sequences: one StockPrice, an update first (queries come only after one), then
 * updates and queries mixed. Timestamps and prices are mostly drawn from a few small values, so
 * that corrections and shared prices are common, and sometimes from just under 10^9.
 */
const randomValue = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 6 }) },
  { weight: 1, arbitrary: fc.integer({ min: 999_999_997, max: 1e9 }) },
);
const randomUpdate = fc.tuple(fc.constant('update' as const), randomValue, randomValue);
const randomQuery = fc.tuple(fc.constantFrom<Query>('current', 'maximum', 'minimum'));
const randomCalls: fc.Arbitrary<Encoded> = fc
  .tuple(
    randomUpdate,
    fc.array(
      fc.oneof({ weight: 3, arbitrary: randomUpdate }, { weight: 2, arbitrary: randomQuery }),
      { maxLength: 40 },
    ),
  )
  .map(([first, rest]) => {
    const calls = [first, ...rest];
    return {
      methods: ['StockPrice', ...calls.map((c) => c[0])],
      args: [[], ...calls.map((c) => (c[0] === 'update' ? [c[1], c[2]] : []))],
      expected: [],
    };
  });

const MAX_CALLS = 100_000;
const MAX_TIMESTAMPS = 500;

/**
 * LeetCode's limits: 10^5 calls, timestamps and prices up to 10^9. MAX_TIMESTAMPS timestamps from
 * 10^6 to 10^9, each recorded and corrected many times, and a query every fourth call. Few
 * timestamps, so that this case judges answers, not speed (the scale follow-up does that).
 */
function maxInput(emit: (call: Call) => void): void {
  const reference = new StockPrice();
  const queries: Query[] = ['current', 'maximum', 'minimum'];
  emit({ method: 'StockPrice', args: [], expected: null });
  for (let i = 1; i < MAX_CALLS; i++) {
    if (i % 4 === 3) {
      const query = queries[i % 3] as Query;
      emit({ method: query, args: [], expected: reference[query]() });
      continue;
    }
    const timestamp = 1e9 - ((i * 7_919) % MAX_TIMESTAMPS) * 1_998_000;
    const price = i % 10 === 0 ? 1e9 - (i % 7) : 1 + ((i * 104_729) % 1_000_003);
    reference.update(timestamp, price);
    emit({ method: 'update', args: [timestamp, price], expected: null });
  }
}

// The scale case, LeetCode's own slow case made larger: SCALE_RECORDS timestamps recorded twice,
// the odd ones first at HIGH and the even ones at LOW, then each timestamp in turn corrected to the
// other price, with a maximum() or a minimum() after each correction (and current() now and then).
// Every correction changes a record at the maximum or the minimum, so a design that rescans the
// prices on such a correction, or on every query, walks all SCALE_RECORDS prices each time: 10^10
// steps in all. Two heaps with lazy validation pay O(log n) per call, less here: equal prices stop
// a heap's sifting at once.
const SCALE_RECORDS = 170_000;
const HIGH = 1e9;
const LOW = 1;

const firstPrice = (t: number): number => (t % 2 === 1 ? HIGH : LOW);

function scaleCalls(emit: (call: Call) => void): void {
  emit({ method: 'StockPrice', args: [], expected: null });
  const set = { method: 'update', args: [0, 0], expected: null };
  for (let t = 1; t <= SCALE_RECORDS; t++) {
    set.args[0] = t;
    set.args[1] = firstPrice(t);
    emit(set);
  }
  const max = { method: 'maximum', args: [], expected: HIGH };
  const min = { method: 'minimum', args: [], expected: LOW };
  const now = { method: 'current', args: [], expected: firstPrice(SCALE_RECORDS) };
  for (let t = 1; t <= SCALE_RECORDS; t++) {
    set.args[0] = t;
    set.args[1] = HIGH + LOW - firstPrice(t);
    emit(set);
    emit(t % 2 === 1 ? max : min);
    if (t % 1000 === 0) {
      if (t === SCALE_RECORDS) now.expected = HIGH + LOW - firstPrice(t);
      emit(now);
    }
  }
}

export default defineSuite({
  reference: StockPrice,
  // Module-level state shows as cases that fail after others ran, and pass alone.
  sharedStateTrap: 'instance-isolation',
  cases: [
    {
      name: 'statement example',
      tier: 'example',
      trap: null,
      ...stock([
        update(3, 40),
        update(1, 25),
        current(40),
        maximum(40),
        update(3, 20),
        current(20),
        maximum(25),
        minimum(20),
        update(2, 15),
        minimum(15),
        current(20),
      ]),
    },
    {
      name: 'a correction lowers the maximum',
      tier: 'core',
      trap: 'correction-lowers-max',
      hint: 'A later record for a timestamp replaces its price; the old price no longer exists. If the highest price is corrected down, the maximum must come down with it.',
      ...stock([
        update(1, 10),
        update(1, 3),
        maximum(3),
        update(2, 8),
        update(3, 9),
        maximum(9),
        update(3, 1),
        maximum(8),
        update(2, 2),
        maximum(3),
      ]),
    },
    {
      name: 'a correction raises the minimum',
      tier: 'core',
      trap: 'correction-of-min',
      hint: 'Corrections work both ways: the lowest price can be corrected up, and then the minimum must rise. Whatever you do for the maximum, do it for the minimum too.',
      ...stock([
        update(1, 3),
        update(2, 5),
        minimum(3),
        maximum(5),
        update(1, 8),
        minimum(5),
        maximum(8),
        update(2, 9),
        minimum(8),
        maximum(9),
      ]),
    },
    {
      name: 'an older record arrives last',
      tier: 'core',
      trap: 'current-is-latest-timestamp',
      hint: 'Records arrive out of order. The current price is the price at the latest timestamp seen, not the price of the last update call.',
      ...stock([
        update(5, 10),
        update(2, 7),
        current(10),
        update(4, 1),
        current(10),
        update(6, 3),
        current(3),
        update(1, 100),
        current(3),
        maximum(100),
      ]),
    },
    {
      name: 'the latest timestamp corrected',
      tier: 'core',
      trap: 'correction-of-current',
      hint: 'The latest timestamp can be corrected like any other. When its record comes again with a new price, the current price changes, although the timestamp is not newer.',
      ...stock([
        update(5, 10),
        update(5, 4),
        current(4),
        update(3, 7),
        update(5, 12),
        current(12),
        minimum(7),
      ]),
    },
    {
      name: 'two timestamps at one price, one corrected away',
      tier: 'core',
      trap: 'duplicate-prices',
      hint: 'Several timestamps can share a price. Correcting one of them away removes one record at that price, not the price itself: the others still hold it.',
      ...stock([
        update(1, 5),
        update(2, 5),
        update(3, 9),
        update(1, 7),
        minimum(5),
        update(2, 8),
        minimum(7),
        update(4, 20),
        update(5, 20),
        update(4, 1),
        maximum(20),
        minimum(1),
        update(5, 2),
        maximum(9),
      ]),
    },
    {
      name: 'two StockPrice objects interleaved',
      tier: 'core',
      trap: 'instance-isolation',
      beyondLeetCode: true,
      hint: 'Each StockPrice must keep its own records. Is any of your state shared by every instance?',
      methods: [
        'StockPrice',
        'StockPrice',
        'update',
        'update',
        'update',
        'maximum',
        'current',
        'minimum',
        'current',
      ],
      args: [[], [], [1, 50], [2, 30], [1, 40], [0], [0], [1], [1]],
      targets: [0, 1, 0, 1, 0, 0, 0, 1, 1],
      expected: [null, null, null, null, null, 40, 40, 30, 30],
    },
    {
      name: '10^5 calls with timestamps and prices up to 10^9',
      tier: 'core',
      trap: 'max-input',
      hint: 'The largest input LeetCode allows: 10^5 calls, timestamps and prices up to 10^9, many corrections. Check what your code assumes about their size.',
      // Not a speed trap: room for LeetCode's MaxPriorityQueue with records (about 350 ms here,
      // against about 150 ms for the reference).
      timeLimitMs: 4000,
      describe: `${MAX_CALLS} calls: updates over ${MAX_TIMESTAMPS} timestamps from 10^6 to 10^9 (most of them corrections), prices up to 10^9, a query every fourth call`,
      generate: maxInput,
    },
    {
      name: 'random calls against the reference',
      tier: 'core',
      trap: 'random-core',
      hint: 'A short random sequence of updates and queries disagrees with the reference; the counterexample shows the smallest one found.',
      property: { calls: randomCalls },
    },
    {
      name: '1.7·10^5 timestamps at two prices, each corrected to the other',
      tier: 'follow-up',
      trap: 'scale',
      hint: {
        slow: 'Follow-up: with many records and a query after every correction, walking over all the prices on a query or a correction is too slow. Keep the prices in a structure whose top is the extreme, and deal with corrected records only when they reach the top.',
      },
      describe: `update(t, t odd ? ${HIGH} : ${LOW}) for t = 1..${SCALE_RECORDS}, then for t = 1..${SCALE_RECORDS}: update(t, the other price), then maximum() or minimum(), and current() every 1000th t`,
      timeLimitMs: 6400,
      generate: scaleCalls,
    },
  ],
});
