import { expect, test } from 'vitest';
import { plural } from '../../harness/terminal/plural.ts';

test('one is singular, every other count plural', () => {
  expect(plural(1, 'call')).toBe('1 call');
  expect(plural(0, 'call')).toBe('0 calls');
  expect(plural(2, 'attempt')).toBe('2 attempts');
  expect(plural(1, 'match', 'matches')).toBe('1 match');
  expect(plural(3, 'match', 'matches')).toBe('3 matches');
});
