// Hidden suite for 1352. Examples must match the statement (a test checks it); hidden cases each aim
// at one trap and carry a hint that points at the idea without giving the code.
//
// Every input keeps LeetCode's guarantee: the product of any run of consecutive numbers fits in a
// signed 32-bit integer. Between two zeros the numbers multiply up to at most 2^31 - 1 (larger values
// are replaced by 1 where inputs are drawn at random), so every prefix product of a correct solution is
// an exact integer. An input that broke this would fail correct solutions: a broken test, not a trap.
import fc from 'fast-check';
import { defineSuite, type Encoded } from '../../harness/suite.ts';
import { ProductOfNumbers } from './solution.ts';

const INT32_MAX = 2 ** 31 - 1;

/** `['add', num]`, or `['get', k, expected]` (the expected product is ignored by `products`). */
type Step = readonly ['add', number] | readonly ['get', number, number?];

/** One ProductOfNumbers driven through the steps, expecting the products written in them. */
function played(steps: Step[]): Encoded {
  return {
    methods: ['ProductOfNumbers', ...steps.map(([op]) => (op === 'add' ? 'add' : 'getProduct'))],
    args: [[], ...steps.map((step) => [step[1]])],
    expected: [null, ...steps.map((step) => (step[0] === 'add' ? null : (step[2] ?? null)))],
  };
}

/** The same, with the reference's answers: for inputs too long to work out by hand. */
function products(steps: Step[]): Encoded {
  const reference = new ProductOfNumbers();
  return played(
    steps.map((step): Step => {
      if (step[0] === 'add') {
        reference.add(step[1]);
        return step;
      }
      return ['get', step[1], reference.getProduct(step[1])];
    }),
  );
}

/**
 * Makes steps valid: a number that would push the product since the last zero past 2^31 - 1 becomes
 * 1, and a query asks for at most as many numbers as were added (none before the first add).
 */
function withinGuarantee(steps: Step[]): Step[] {
  let added = 0;
  let run = 1;
  const valid: Step[] = [];
  for (const step of steps) {
    if (step[0] === 'add') {
      const num = step[1] !== 0 && run * step[1] > INT32_MAX ? 1 : step[1];
      run = num === 0 ? 1 : run * num;
      added++;
      valid.push(['add', num]);
    } else if (added > 0) {
      valid.push(['get', Math.min(step[1], added)]);
    }
  }
  return valid;
}

/** The largest core input: 36,000 adds and 3,999 queries (4·10^4 calls with the constructor). */
function maxInputSteps(): Step[] {
  let x = 2024; // a Park–Miller generator: every step is exact in doubles
  const random = (n: number): number => {
    x = (x * 48271) % 2147483647;
    return x % n;
  };
  const steps: Step[] = [];
  let added = 0;
  let run = 0; // numbers since the last zero
  let query = 0;
  for (let i = 0; i < 36_000; i++) {
    const r = random(1000);
    // Mostly 1s; some 2s and 3s; now and then a large value, up to 100; a zero about every 110.
    let num = r < 900 ? 1 : r < 980 ? 2 + random(2) : r < 990 ? 4 + random(97) : r < 991 ? 100 : 0;
    if (i === 20_000 || i === 20_001) num = 0; // two zeros in a row
    steps.push(['add', num]);
    added++;
    run = num === 0 ? 0 : run + 1;
    if (i % 9 === 8) {
      // k cycles through the edges: small, the run since the zero, one more, everything added.
      const kind = query++ % 8;
      const k =
        kind === 0
          ? run
          : kind === 1
            ? run + 1
            : kind === 2 && query % 100 < 8
              ? added
              : 1 + random(Math.min(added, kind < 5 ? 20 : 200));
      steps.push(['get', Math.max(1, Math.min(k, added))]);
    }
  }
  return withinGuarantee(steps).slice(0, 39_999);
}

/** Random steps: small numbers (zeros, 1s, 2s and 3s) with an occasional large one, and short queries. */
const randomSteps: fc.Arbitrary<Encoded> = fc
  .array(
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .oneof(
            { weight: 1, arbitrary: fc.constant(0) },
            { weight: 2, arbitrary: fc.integer({ min: 1, max: 3 }) },
            { weight: 1, arbitrary: fc.integer({ min: 4, max: 100 }) },
          )
          .map((num): Step => ['add', num]),
      },
      {
        weight: 2,
        arbitrary: fc
          .oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 40 }))
          .map((k): Step => ['get', k]),
      },
    ),
    { minLength: 1, maxLength: 40 },
  )
  .map((steps) => played(withinGuarantee(steps)));

// The scale case: numbers are 1 except a zero at ZERO_AT, 2s at positions ≡ TWO_AT (mod TWO_EVERY)
// and 3s at positions ≡ THREE_AT (mod THREE_EVERY) (0-based). After the zero there are 10 twos and 5
// threes: 2^10 · 3^5 ≈ 2.5·10^5 < 2^31, so the guarantee holds, and the product of any window is
// 2^(twos in it) · 3^(threes in it), or 0 if it holds the zero: counted in closed form. Every query
// reaches back over most of what was added, so an O(k) loop makes over 5·10^9 steps in all, while
// the calls number under 2·10^5.
const SCALE_FIRST_ADDS = 110_000;
const SCALE_ROUNDS = 12_500; // then each round: one add, four queries
const SCALE_QUERIES_PER_ROUND = 4;
const ZERO_AT = 2_000;
const TWO_AT = 777;
const TWO_EVERY = 12_000;
const THREE_AT = 4_321;
const THREE_EVERY = 25_000;
const K_MIN = 100_001;
const K_SPREAD = 10_001;

function scaleNumber(i: number): number {
  if (i === ZERO_AT) return 0;
  if (i % TWO_EVERY === TWO_AT) return 2;
  return i % THREE_EVERY === THREE_AT ? 3 : 1;
}

/** How many positions in [0, upTo] are ≡ at (mod every). */
function countUpTo(upTo: number, at: number, every: number): number {
  return upTo < at ? 0 : Math.floor((upTo - at) / every) + 1;
}

const POWERS_OF_2 = Array.from({ length: 20 }, (_, i) => 2 ** i);
const POWERS_OF_3 = Array.from({ length: 12 }, (_, i) => 3 ** i);

/** The product of the numbers at positions [from, to]. */
function scaleProduct(from: number, to: number): number {
  if (from <= ZERO_AT && ZERO_AT <= to) return 0;
  const twos = countUpTo(to, TWO_AT, TWO_EVERY) - countUpTo(from - 1, TWO_AT, TWO_EVERY);
  const threes = countUpTo(to, THREE_AT, THREE_EVERY) - countUpTo(from - 1, THREE_AT, THREE_EVERY);
  return (POWERS_OF_2[twos] as number) * (POWERS_OF_3[threes] as number);
}

export default defineSuite({
  reference: ProductOfNumbers,
  // Module-level state shows as cases that fail after others ran, and pass alone.
  sharedStateTrap: 'instance-isolation',
  cases: [
    {
      name: 'statement example',
      tier: 'example',
      trap: null,
      methods: [
        'ProductOfNumbers',
        'add',
        'add',
        'add',
        'add',
        'add',
        'getProduct',
        'getProduct',
        'getProduct',
        'add',
        'getProduct',
      ],
      args: [[], [3], [0], [2], [5], [4], [2], [3], [4], [8], [2]],
      expected: [null, null, null, null, null, null, 20, 40, 0, null, 32],
    },
    {
      name: 'products after a zero',
      tier: 'core',
      trap: 'zero-reset',
      hint: 'Once a zero has been added, a product that runs through everything added so far is 0 forever. A window that starts after the zero must not feel it.',
      ...played([
        ['add', 5],
        ['add', 0],
        ['add', 2],
        ['add', 3],
        ['get', 1, 3],
        ['get', 2, 6],
        ['get', 3, 0],
        ['add', 4],
        ['get', 3, 24],
        ['get', 4, 0],
      ]),
    },
    {
      name: 'a zero just inside and just outside the window',
      tier: 'core',
      trap: 'zero-boundary',
      hint: 'The last k numbers include the number added k calls to add() ago, and not the one before it. Place a zero at each of those two spots and check your comparison.',
      ...played([
        ['add', 7],
        ['add', 0],
        ['add', 2],
        ['add', 3],
        ['add', 4],
        ['get', 3, 24],
        ['get', 4, 0],
        ['get', 2, 12],
        ['get', 5, 0],
      ]),
    },
    {
      name: 'a zero first of all',
      tier: 'core',
      trap: 'zero-boundary',
      hint: 'The very first number can be the zero. Check a window that ends just after it and one that reaches it.',
      ...played([
        ['add', 0],
        ['get', 1, 0],
        ['add', 6],
        ['get', 1, 6],
        ['get', 2, 0],
      ]),
    },
    {
      name: 'k equal to everything added',
      tier: 'core',
      trap: 'k-equals-length',
      hint: 'k may be exactly the count of numbers added so far: the window is the whole stream. Make sure that product is still defined.',
      ...played([
        ['add', 2],
        ['get', 1, 2],
        ['add', 3],
        ['add', 4],
        ['get', 3, 24],
        ['get', 1, 4],
        ['add', 5],
        ['get', 4, 120],
        ['get', 2, 20],
      ]),
    },
    {
      name: 'several zeros',
      tier: 'core',
      trap: 'multiple-zeros',
      hint: 'Zeros can come again and again, even twice in a row. What matters for a window is the most recent zero, not the first one.',
      ...played([
        ['add', 2],
        ['add', 0],
        ['add', 3],
        ['add', 0],
        ['add', 4],
        ['add', 5],
        ['get', 2, 20],
        ['get', 3, 0],
        ['get', 4, 0],
        ['add', 0],
        ['add', 0],
        ['add', 6],
        ['get', 1, 6],
        ['get', 2, 0],
        ['add', 7],
        ['get', 2, 42],
        ['get', 3, 0],
      ]),
    },
    {
      name: 'two instances interleaved',
      tier: 'core',
      trap: 'instance-isolation',
      beyondLeetCode: true,
      hint: 'Each ProductOfNumbers must keep its own numbers. Is any of your state shared by every instance?',
      methods: [
        'ProductOfNumbers',
        'ProductOfNumbers',
        'add',
        'add',
        'add',
        'add',
        'getProduct',
        'getProduct',
        'add',
        'getProduct',
        'getProduct',
      ],
      args: [[], [], [2], [3], [5], [0], [2], [1], [7], [1], [1]],
      targets: [0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0],
      expected: [null, null, null, null, null, null, 10, 0, null, 7, 5],
    },
    {
      name: '4·10^4 calls, values up to 100',
      tier: 'core',
      trap: 'max-input',
      hint: 'The largest input LeetCode allows: long runs between zeros, large and small k. Check the edge cases again.',
      ...products(maxInputSteps()),
    },
    {
      name: 'random calls against the reference',
      tier: 'core',
      trap: 'random-core',
      hint: 'A short random sequence of calls disagrees with the reference; the counterexample shows the smallest one found.',
      property: { calls: randomSteps },
    },
    {
      name: '1.2·10^5 adds, 5·10^4 queries with k over 10^5',
      tier: 'follow-up',
      trap: 'scale',
      hint: {
        slow: 'Follow-up: each query looks back over 100,000 numbers, and there are 50,000 queries. getProduct must cost O(1), whatever k is: what could you store as numbers arrive so that any window becomes one calculation?',
      },
      describe: `${SCALE_FIRST_ADDS} adds (1s, a few 2s and 3s, one zero), then ${SCALE_ROUNDS} rounds of one add and ${SCALE_QUERIES_PER_ROUND} getProduct(k), ${K_MIN} <= k < ${K_MIN + K_SPREAD}`,
      timeLimitMs: 1000, // the reference takes 130–185 ms on a busy machine; the O(k) loop over 10 s
      generate(emit) {
        emit({ method: 'ProductOfNumbers', args: [], expected: null });
        const add = { method: 'add', args: [0], expected: null };
        const get = { method: 'getProduct', args: [0], expected: 0 };
        let added = 0;
        let query = 0;
        const addNext = (): void => {
          add.args[0] = scaleNumber(added++);
          emit(add);
        };
        for (let i = 0; i < SCALE_FIRST_ADDS; i++) addNext();
        for (let round = 0; round < SCALE_ROUNDS; round++) {
          addNext();
          for (let j = 0; j < SCALE_QUERIES_PER_ROUND; j++) {
            const k = K_MIN + ((query++ * 7919) % K_SPREAD);
            get.args[0] = k;
            get.expected = scaleProduct(added - k, added - 1);
            emit(get);
          }
        }
      },
    },
  ],
});
