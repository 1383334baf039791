// The runner a problem's script sets up in the child, and the fake clock fixture, run directly.
import { describe, expect, test } from 'vitest';
import { directPort, makeFixture } from '../../harness/sandbox/port.ts';
import { createRunner } from '../../harness/judge/child/runner.ts';
import { fakeClock, makeClock } from '../../harness/fixtures.ts';
import { defineSuite, fixture } from '../../harness/suite.ts';

class Stamp {
  constructor(private readonly clock: { now(): number }) {}
  stamp(): number {
    return this.clock.now();
  }
}

const suite = defineSuite({
  reference: Stamp,
  cases: [
    {
      name: 'reads the clock',
      tier: 'example',
      trap: null,
      fixtures: { clock: fakeClock(5) },
      methods: ['Stamp', 'stamp', 'clock.advance', 'stamp', 'clock.set', 'stamp'],
      args: [[fixture('clock')], [], [10], [], [3], []],
      expected: [null, 5, null, 15, null, 3],
    },
  ],
});

describe('createRunner', () => {
  const runner = createRunner(suite);

  test('lists the cases and every fixture source, once', () => {
    expect(runner.cases).toEqual([
      expect.objectContaining({ name: 'reads the clock', tier: 'example', timeLimitMs: 1000 }),
    ]);
    expect(runner.fixtureSources).toEqual([fakeClock().source]);
  });

  test('runs a case against a port, with the clock shown on every row', () => {
    const result = runner.run(0, directPort(Stamp), 'Stamp', 'stamp.ts', (s) => s);
    expect(result.status).toBe('passed');
    expect(result.calls?.map((c) => c.note)).toEqual(['t=5', 't=5', 't=15', 't=15', 't=3', 't=3']);
    expect(() => runner.run(7, directPort(Stamp), 'Stamp', 'stamp.ts', (s) => s)).toThrow(
      'no case 7',
    );
  });
});

describe('the fake clock', () => {
  test('is moved only by its control, backwards too', () => {
    const clock = makeClock(100);
    expect(clock.handle.now()).toBe(100);
    expect(clock.control.advance(50)).toBeNull();
    expect(clock.control.set(20)).toBeNull();
    expect(clock.handle.now()).toBe(20);
    expect(clock.status()).toBe('t=20');
    expect(Object.isFrozen(clock.handle)).toBe(true);
  });

  test('its source stands on its own', () => {
    const made = makeFixture(fakeClock(7));
    expect((made.handle as { now(): number }).now()).toBe(7);
  });
});
