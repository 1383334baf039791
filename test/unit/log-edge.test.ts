// The sliding log's edge case moves its range of seeded units to where calls land, but never seeds a
// unit stamped after the moment it is written: a flip at load 23.5 (a solution that takes the log's
// newest score as a floor for its clock, fed a unit from the future) came from exactly that.
import { describe, expect, test } from 'vitest';
import { nextOffset, type LogEdge } from '../../harness/redis/log-edge.ts';

const edge: LogEdge = { limit: 100, windowMs: 1000, span: 90, attempts: 10 };

describe('nextOffset', () => {
  test('centres the next range where the call landed', () => {
    expect(nextOffset(0, edge)).toBe(0);
    expect(nextOffset(200, edge)).toBe(155);
  });

  test('never seeds a unit after the moment it is written', () => {
    for (const landed of [910, 1000, 1500, 18_000]) {
      const offset = nextOffset(landed, edge);
      // The newest seeded unit is stamped offset + span − 1 − window ms from the seed's own time.
      expect(offset + edge.span - 1 - edge.windowMs).toBeLessThan(0);
    }
  });
});
