import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { longestFirst, rememberDurations } from '../../scripts/lib/durations.ts';

const scratch = (): string =>
  path.join(mkdtempSync(path.join(tmpdir(), 'durations-')), 'durations.json');

describe('grade starts the longest problems first', () => {
  test('with nothing remembered, the ladder order stands', () => {
    expect(longestFirst(['a', 'b', 'c'], scratch())).toEqual([0, 1, 2]);
  });

  test('longest last time first; one never timed first of all; ties keep their order', () => {
    const file = scratch();
    rememberDurations({ a: 100, b: 900, c: 100 }, file);
    expect(longestFirst(['a', 'b', 'c', 'new'], file)).toEqual([3, 1, 0, 2]);
  });

  test('what is remembered adds to what was known, and a later time replaces an earlier one', () => {
    const file = scratch();
    rememberDurations({ a: 100, b: 200 }, file);
    expect(longestFirst(['a', 'b'], file)).toEqual([1, 0]);
    rememberDurations({ a: 300 }, file);
    expect(longestFirst(['a', 'b'], file)).toEqual([0, 1]);
  });

  test('a damaged file is ignored, and entries that are not durations are left out', () => {
    const file = scratch();
    writeFileSync(file, '{not json');
    expect(longestFirst(['a', 'b'], file)).toEqual([0, 1]);
    writeFileSync(file, JSON.stringify({ a: 'slow', b: -1, c: 5 }));
    expect(longestFirst(['a', 'b', 'c'], file)).toEqual([0, 1, 2]);
    writeFileSync(file, JSON.stringify([1, 2]));
    expect(longestFirst(['a'], file)).toEqual([0]);
  });
});
