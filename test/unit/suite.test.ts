// The suite API's helpers: telling cases apart, LeetCode's encoding, and comparisons.
import { describe, expect, test } from 'vitest';
import {
  decode,
  defineSuite,
  fromCalls,
  isFixed,
  isGenerated,
  isProperty,
  isThrows,
  withinTolerance,
  type Call,
  type Case,
} from '../../harness/suite.ts';
import fc from 'fast-check';

const base = { name: 'c', tier: 'core', trap: 't', hint: 'h' } as const;
const fixed: Case = { ...base, methods: ['A'], args: [[]], expected: [null] };
const generated: Case = { ...base, describe: 'd', generate: () => {} };
const property: Case = {
  ...base,
  property: {
    calls: fc.constant({ methods: ['A'], args: [[]], expected: [] }),
  },
};

test('each kind of case is recognised by its shape, and only that kind', () => {
  expect([fixed, generated, property].map(isFixed)).toEqual([true, false, false]);
  expect([fixed, generated, property].map(isGenerated)).toEqual([false, true, false]);
  expect([fixed, generated, property].map(isProperty)).toEqual([false, false, true]);
});

test('defineSuite hands the suite back unchanged', () => {
  const suite = { reference: class {}, cases: [fixed] };
  expect(defineSuite(suite)).toBe(suite);
});

test('isThrows accepts only an object with a string `throws`', () => {
  expect(isThrows({ throws: 'RangeError' })).toBe(true);
  expect(isThrows({ throws: 1 })).toBe(false);
  expect(isThrows(null)).toBe(false);
  expect(isThrows('RangeError')).toBe(false);
  expect(isThrows([])).toBe(false);
});

describe('decode', () => {
  test('zips the parallel arrays into calls, on instance 0 unless told otherwise', () => {
    expect(
      decode({ methods: ['A', 'f', 'g'], args: [[1], [2, 3], []], expected: [null, 5, true] }),
    ).toEqual([
      { method: 'A', args: [1], expected: null, target: 0 },
      { method: 'f', args: [2, 3], expected: 5, target: 0 },
      { method: 'g', args: [], expected: true, target: 0 },
    ]);
  });

  test('follows targets, and fills in missing args', () => {
    expect(
      decode({
        methods: ['A', 'A', 'f'],
        args: [[]],
        expected: [null, null, 1],
        targets: [0, 1, 1],
      }),
    ).toEqual([
      { method: 'A', args: [], expected: null, target: 0 },
      { method: 'A', args: [], expected: null, target: 1 },
      { method: 'f', args: [], expected: 1, target: 1 },
    ]);
  });
});

test('fromCalls plays the calls in order, every time it is asked', () => {
  const calls: Call[] = [
    { method: 'A', args: [], expected: null },
    { method: 'f', args: [1], expected: 1 },
  ];
  const source = fromCalls(calls);
  for (let i = 0; i < 2; i++) {
    const seen: Call[] = [];
    source((call) => seen.push(call));
    expect(seen).toEqual(calls);
  }
});

test('withinTolerance compares numbers loosely and anything else exactly', () => {
  const equals = withinTolerance(1e-5);
  expect(equals(1, 1 + 1e-6)).toBe(true);
  expect(equals(2.5, 2.500009)).toBe(true);
  expect(equals(2.5, 2.49999)).toBe(false);
  expect(equals(1, 1.001)).toBe(false);
  expect(equals(null, null)).toBe(true);
  expect(equals(null, undefined)).toBe(false);
  expect(equals('1', 1)).toBe(false);
  expect(equals(NaN, NaN)).toBe(false);
});
