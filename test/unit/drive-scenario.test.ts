// driveScenario(): a scenario case's script drives the class through Play, each step a row, and the
// first failing step ends it. Run against a class run directly (as the reference is): the driver
// reaches classes only through a Port, so this is the same code path a learner's realm takes.
import { describe, expect, test } from 'vitest';
import { answerEquals } from '../../harness/judge/child/drive.ts';
import { driveScenario, type ScenarioServices } from '../../harness/judge/child/drive-scenario.ts';
import { directPort } from '../../harness/sandbox/port.ts';
import type { Play, ScenarioCase } from '../../harness/suite.ts';

class Counter {
  private n = 0;
  constructor(private readonly limit: number) {
    if (limit <= 0) throw new RangeError('limit');
  }
  async allow(): Promise<{ allowed: boolean; used: number }> {
    await null;
    const allowed = this.n < this.limit;
    if (allowed) this.n++;
    return { allowed, used: this.n };
  }
  async fail(): Promise<never> {
    await null;
    throw new TypeError('broken');
  }
  hang(): Promise<never> {
    return new Promise(() => {});
  }
}

const options = {
  className: 'Counter',
  equals: answerEquals(),
  keepAll: true,
  stopAfterDivergence: false,
  callDeadlineMs: 200,
};

function scenario(script: (play: Play) => Promise<void>): ScenarioCase {
  return { name: 's', tier: 'core', trap: 't', describe: 'd', scenario: script };
}

const run = (script: (play: Play) => Promise<void>, services: ScenarioServices = {}) =>
  driveScenario(scenario(script), directPort(Counter as never), options, services);

describe('driveScenario', () => {
  test('every step is a row; values, oracles, notes and checks that pass', async () => {
    let seen: unknown;
    const result = await run(async (play) => {
      const c = await play.construct([2]);
      await play.call(c, 'allow', [], { allowed: true, used: 1 });
      play.note('wait', 'a while');
      seen = await play.call(c, 'allow', [], (answer: unknown) => ({
        ...(answer as object),
        used: 2,
      }));
      play.check({ what: 'the count', expected: '2', actual: '2', ok: true });
    });
    expect(result.divergedAt).toBeUndefined();
    expect(result.thrown).toBeUndefined();
    expect(seen).toEqual({ allowed: true, used: 2 });
    expect(result.records.map((r) => [r.index, r.method, r.ok, r.step ?? false])).toEqual([
      [0, 'Counter', true, false],
      [1, 'allow', true, false],
      [2, 'wait', true, true],
      [3, 'allow', true, false],
      [4, 'the count', true, true],
    ]);
  });

  test('a call waits until the clients made before it have connected, once for all of them', async () => {
    const events: string[] = [];
    let open: () => void = () => {};
    const port = directPort(Counter as never);
    port.connected = () => {
      events.push('connecting');
      return new Promise<void>((resolve) => {
        open = () => {
          events.push('connected');
          resolve();
        };
      });
    };
    const construct = port.construct.bind(port);
    port.construct = (target, args) => {
      events.push('construct');
      return construct(target, args);
    };
    const begin = port.begin!.bind(port);
    port.begin = (target, method, args) => {
      events.push(method);
      return begin(target, method, args);
    };
    const driven = driveScenario(
      scenario(async (play) => {
        const a = await play.construct([2]);
        const b = await play.construct([2]);
        await play.call(a, 'allow', [], { allowed: true, used: 1 });
        await play.call(b, 'allow', [], { allowed: true, used: 1 });
      }),
      port,
      options,
      {},
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual(['construct', 'construct', 'connecting']);
    open();
    expect((await driven).divergedAt).toBeUndefined();
    expect(events).toEqual(['construct', 'construct', 'connecting', 'connected', 'allow', 'allow']);
  });

  test('a wrong answer ends the script at its row, with the oracle’s expectation shown', async () => {
    let after = false;
    const result = await run(async (play) => {
      const c = await play.construct([1]);
      await play.call(c, 'allow', [], () => ({ allowed: false, used: 0 }));
      after = true;
    });
    expect(after).toBe(false);
    expect(result.divergedAt).toBe(1);
    expect(result.records[1]).toMatchObject({ ok: false, expected: '{allowed:false,used:0}' });
  });

  test('a failing check ends it too; an async oracle is awaited', async () => {
    const result = await run(async (play) => {
      const c = await play.construct([1]);
      await play.call(c, 'allow', [], async (a: unknown) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return a;
      });
      play.check({ what: 'keys left', expected: 'none', actual: 'k', ok: false });
      play.note('never');
    });
    expect(result.divergedAt).toBe(2);
    expect(result.records).toHaveLength(3);
  });

  test('expected throws, unexpected throws, and answers that never come', async () => {
    const thrown = await run(async (play) => {
      await play.construct([0], { throws: 'RangeError' });
      const c = await play.construct([1]);
      await play.call(c, 'fail', [], { throws: 'TypeError' });
      await play.call(c, 'fail', [], null);
    });
    expect(thrown.thrown?.error.message).toBe('broken');
    expect(thrown.divergedAt).toBe(3);
    const hung = await run(async (play) => {
      const c = await play.construct([1]);
      await play.call(c, 'hang', [], null);
    });
    expect(hung.unsettled).toMatch(/^call 1 hang\(\) did not settle within 200 ms/);
  });

  test('a parallel step may work its band out after the answers are in', async () => {
    const result = await run(async (play) => {
      const targets = [await play.construct([3])];
      const answers = await play.parallel(
        [0, 1, 2, 3, 4].map(() => ({ method: 'allow', args: [], target: targets[0] })),
        { allowed: true },
        async () => [3, 3],
      );
      expect(answers).toHaveLength(5);
    });
    expect(result.divergedAt).toBeUndefined();
    expect(result.records[1]).toMatchObject({ expected: '3 of 5 match {allowed:true}', ok: true });
  });

  test('services: the clock skew is handed on; Redis is refused when there is none', async () => {
    const skews: number[] = [];
    await run(async (play) => play.skewClock(7000), { skewClock: (ms) => skews.push(ms) });
    expect(skews).toEqual([7000]);
    await expect(run(async (play) => void play.redis)).rejects.toThrow('no Redis');
  });
});
