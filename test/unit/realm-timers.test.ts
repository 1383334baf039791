// Timers and a skewable clock in the learner's realm (harness/sandbox/realm.ts and inside-realm.ts).
// Realms of async problems give learner code setTimeout and clearTimeout, answered by the judge
// through the realm's outbound queue, so that a call can give up on a service that never answers;
// the judge never calls the callback itself, and a case's timers die with it. skewClock makes the
// realm's clock read as a server's whose clock is off.
import { afterEach, describe, expect, test } from 'vitest';
import { settle } from '../../harness/judge/child/drive-async.ts';
import { BRIDGE_PARTS, createBridge } from '../../harness/sandbox/inside-realm.ts';
import type {
  OutboundAnswer,
  OutboundHost,
  OutboundRequest,
} from '../../harness/sandbox/outbound.ts';
import type { Reply } from '../../harness/sandbox/port.ts';
import { LEARNER_GLOBAL, LearnerRealm } from '../../harness/sandbox/realm.ts';
import { fixture, type FixtureSpec } from '../../harness/suite.ts';

const LEARNER = `
let fired = 0;
let thrown = 0;
class K {
  constructor(service) { this.service = service; }
  async sleep(ms) {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return 'woke';
  }
  withArgs() {
    return new Promise((resolve) => setTimeout((a, b) => resolve([a, b]), 1, 'x', 2));
  }
  async cleared(ms) {
    const t = setTimeout(() => { fired++; }, ms);
    clearTimeout(t);
    await new Promise((resolve) => setTimeout(resolve, 3 * ms));
    return fired;
  }
  // Cleared only after the judge took it: the judge is told, and drops its own timer.
  async clearedLate(ms) {
    const t = setTimeout(() => { fired++; }, ms);
    await new Promise((resolve) => setTimeout(resolve, 5));
    clearTimeout(t);
    await new Promise((resolve) => setTimeout(resolve, 3 * ms));
    return fired;
  }
  schedule(ms) {
    setTimeout(() => { fired++; }, ms);
    return typeof setTimeout(() => {}, ms);
  }
  count() { return fired; }
  deadline(ms) {
    const never = new Promise(() => {});
    const late = new Promise((_, reject) =>
      setTimeout(() => reject(new Error('Redis did not answer within ' + ms + ' ms')), ms));
    return Promise.race([never, late]);
  }
  async realmError(ms) {
    try { await this.deadline(ms); } catch (e) { return [e instanceof Error, e.message]; }
    return 'resolved';
  }
  async throwing() {
    setTimeout(() => { thrown++; throw new Error('boom in a callback'); }, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    return thrown;
  }
  async badDelays() {
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, -5));
    await new Promise((resolve) => setTimeout(resolve, NaN));
    await new Promise((resolve) => setTimeout(resolve, 2 ** 40));
    await new Promise((resolve) => setTimeout(resolve));
    return Date.now() - started;
  }
  notAFunction() { return setTimeout('fired()', 1); }
  tryTimer(name) {
    try { globalThis[name](() => {}, 1); return 'ran'; } catch (e) { return e.message; }
  }
  now() { return Date.now(); }
  newDate() { return new Date().getTime(); }
  dateText() { return Date(); }
  given(ms) { return new Date(ms).getTime(); }
  // Asks the service; gives up after ms.
  ask(what, ms) {
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer within ' + ms + ' ms')), ms);
    });
    return Promise.race([this.service.ask(what), late]).finally(() => clearTimeout(timer));
  }
  // A timer whose callback asks the service: the request goes out without anyone polling.
  askLater(what, ms) {
    setTimeout(() => { this.service.ask(what).catch(() => {}); }, ms);
    return 'set';
  }
}`;

function realmWith(options: { timers?: boolean } = { timers: true }, sources: string[] = []) {
  const realm = new LearnerRealm(sources, options);
  const loaded = realm.load(
    `var ${LEARNER_GLOBAL} = (() => { ${LEARNER}; return { K }; })();`,
    'learner-bundle.js',
    'K',
  );
  expect(loaded).toEqual({ ok: true });
  realm.reset(undefined);
  expect(realm.construct(0, []).ok).toBe(true);
  return realm;
}

/** Begins a call and awaits it as drive-async does; its reply, or 'unsettled'. */
async function play(
  realm: LearnerRealm,
  method: string,
  args: unknown[] = [],
  deadlineMs = 2000,
): Promise<Reply | 'unsettled'> {
  const [reply] = await settle(realm, [realm.begin(0, method, args)], deadlineMs);
  return reply ?? 'unsettled';
}

async function value(realm: LearnerRealm, method: string, args: unknown[] = []): Promise<unknown> {
  const reply = await play(realm, method, args);
  if (reply === 'unsettled') throw new Error(`${method} did not settle`);
  if (!reply.ok) throw new Error(`${reply.error.name}: ${reply.error.message}`);
  return reply.value;
}

const now = (realm: LearnerRealm, method: string): number => {
  const reply = realm.call(0, method, []);
  if (!reply.ok) throw new Error(reply.error.message);
  return reply.value as number;
};

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The judge's own timers for a realm (private): to see that clearing and reset drop them. */
const judgeTimers = (realm: LearnerRealm): Map<number, NodeJS.Timeout> =>
  (realm as unknown as { judgeTimers: Map<number, NodeJS.Timeout> }).judgeTimers;

describe('timers in a realm created with { timers: true }', () => {
  test('a method that awaits a 50 ms timer settles after at least 50 ms, and not much later', async () => {
    const realm = realmWith();
    const started = performance.now();
    expect(await value(realm, 'sleep', [50])).toBe('woke');
    const took = performance.now() - started;
    // Node may fire a timer up to a millisecond early by performance.now(): its loop clock is whole ms.
    expect(took).toBeGreaterThanOrEqual(49);
    expect(took).toBeLessThan(500);
    expect(await value(realm, 'withArgs')).toEqual(['x', 2]);
    // Timer bookkeeping reads no clock of the learner's.
    expect(realm.clockReads()).toBe(0);
  });

  test('clearTimeout stops the callback, whether or not the judge took the timer yet', async () => {
    const realm = realmWith();
    expect(await value(realm, 'cleared', [20])).toBe(0);
    expect(await value(realm, 'clearedLate', [60])).toBe(0);
    expect(await value(realm, 'count')).toBe(0);
    // Told of the late clearing, the judge dropped its timer too: none is left.
    expect(judgeTimers(realm).size).toBe(0);
  });

  test('a Promise.race deadline rejects with the learner’s own Error, message intact', async () => {
    const realm = realmWith();
    const started = performance.now();
    const reply = await play(realm, 'deadline', [100]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
    expect(reply).toEqual({
      ok: false,
      error: expect.objectContaining({
        isError: true,
        name: 'Error',
        message: 'Redis did not answer within 100 ms',
      }),
    });
    // Inside the realm it is an Error of the realm's own.
    expect(await value(realm, 'realmError', [10])).toEqual([
      true,
      'Redis did not answer within 10 ms',
    ]);
  });

  test('timers pending at reset never fire: no learner code runs after it', async () => {
    const realm = realmWith();
    expect(realm.call(0, 'schedule', [30])).toEqual({ ok: true, value: 'number' });
    realm.pump();
    expect(judgeTimers(realm).size).toBe(2);
    realm.reset(undefined);
    expect(judgeTimers(realm).size).toBe(0);
    await wait(100);
    realm.pump();
    await wait(20);
    expect(realm.construct(0, []).ok).toBe(true);
    expect(await value(realm, 'count')).toBe(0);
    // Without the reset, the same timers do fire: the check above can fail.
    expect(realm.call(0, 'schedule', [30]).ok).toBe(true);
    realm.pump();
    await wait(100);
    expect(await value(realm, 'count')).toBe(1);
  });

  test('a callback that throws reaches neither the call nor the judge: it is printed, as Node would', async () => {
    const escaped: unknown[] = [];
    const onError = (error: unknown) => escaped.push(error);
    process.on('uncaughtException', onError);
    process.on('unhandledRejection', onError);
    try {
      const realm = realmWith();
      expect(await value(realm, 'throwing')).toBe(1);
      await wait(20);
      expect(escaped).toEqual([]);
      expect(realm.drainOutput()).toMatch(/^Uncaught Error: boom in a callback\n/);
    } finally {
      process.off('uncaughtException', onError);
      process.off('unhandledRejection', onError);
    }
  });

  test('delays that are not 1 to 2^31 - 1 ms are 1 ms, as in Node; a callback must be a function', async () => {
    const realm = realmWith();
    expect(await value(realm, 'badDelays')).toBeLessThan(200);
    const reply = realm.call(0, 'notAFunction', []);
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.error.name).toBe('TypeError');
  });

  test('setInterval and setImmediate say that only setTimeout and clearTimeout are here', () => {
    const realm = realmWith();
    for (const name of ['setInterval', 'setImmediate']) {
      expect(realm.call(0, 'tryTimer', [name])).toEqual({
        ok: true,
        value: expect.stringMatching(/^only setTimeout and clearTimeout are available here/),
      });
    }
  });

  test('a pending timer keeps neither the process nor a dropped realm alive', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const realm = realmWith();
    realm.call(0, 'schedule', [600_000]);
    realm.pump();
    const [timer] = judgeTimers(realm).values();
    expect(timer?.hasRef()).toBe(false);
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
    realm.reset(undefined);
  });
});

describe('the bridge’s timers, driven by hand', () => {
  test('a timer cleared after its answer came, before its job ran, does not fire', async () => {
    const global: Record<string, unknown> = {};
    const bridge = createBridge(global, true, BRIDGE_PARTS);
    const set = global.setTimeout as (fn: () => void, ms: number) => number;
    const clear = global.clearTimeout as (id: number) => void;
    let fired = 0;
    const a = set(() => fired++, 10);
    const b = set(() => fired++, 10);
    expect([a, b]).toEqual([1, 2]);
    expect(JSON.parse(bridge.takeOutbound())).toEqual([
      [0, '(timer)', ['10']],
      [1, '(timer)', ['10']],
    ]);
    expect(bridge.answerOutbound(0, 't')).toBe(true);
    expect(bridge.answerOutbound(1, 't')).toBe(true);
    clear(a);
    // Answered already: nothing is left for the judge to drop, so nothing is sent.
    expect(bridge.takeOutbound()).toBe('');
    await wait(0);
    expect(fired).toBe(1);
    // Cleared while the judge has it: the judge is told; while it was queued: it never leaves.
    const c = set(() => fired++, 10);
    expect(JSON.parse(bridge.takeOutbound())).toEqual([[2, '(timer)', ['10']]]);
    clear(c);
    clear(set(() => fired++, 10));
    expect(JSON.parse(bridge.takeOutbound())).toEqual([[3, '(timer-clear)', ['2']]]);
    expect(bridge.answerOutbound(2, 't')).toBe(false);
    await wait(0);
    expect(fired).toBe(1);
  });
});

describe('a realm created without timers', () => {
  test('keeps the old message for every timer', () => {
    const realm = realmWith({});
    for (const name of ['setTimeout', 'setInterval', 'setImmediate']) {
      expect(realm.call(0, 'tryTimer', [name])).toEqual({
        ok: true,
        value: expect.stringMatching(/^timers are not available here/),
      });
    }
    expect(realmWith({ timers: false }).call(0, 'tryTimer', ['setTimeout'])).toEqual({
      ok: true,
      value: expect.stringMatching(/^timers are not available here/),
    });
  });
});

describe('timers beside an outbound host', () => {
  /** A service that answers 'pong:<what>' after `delayMs`, or never for 'hang'. */
  class FakeHost implements OutboundHost {
    readonly seen: string[] = [];
    private readonly pending = new Set<NodeJS.Timeout>();
    constructor(private readonly delayMs: number) {}
    reset(): void {
      for (const t of this.pending) clearTimeout(t);
      this.pending.clear();
    }
    dispatch(request: OutboundRequest, answer: (answer: OutboundAnswer) => void): void {
      this.seen.push(`${request.channel}:${request.args.join(' ')}`);
      if (request.args[0] === 'hang') return;
      const t = setTimeout(() => {
        this.pending.delete(t);
        answer({ ok: true, value: `pong:${request.args[0] ?? ''}` });
      }, this.delayMs);
      this.pending.add(t);
    }
    async close(): Promise<void> {
      this.reset();
    }
  }
  const SERVICE = String(function service(post: (request: string[]) => Promise<unknown>) {
    return { handle: { ask: (what: string) => post([what]) }, control: {} };
  });
  const spec: FixtureSpec = { source: SERVICE, outbound: 'redis' };
  const hosts: FakeHost[] = [];
  afterEach(async () => {
    for (const host of hosts.splice(0)) await host.close();
  });

  function withHost(delayMs: number) {
    const realm = realmWith({ timers: true }, [SERVICE]);
    const host = new FakeHost(delayMs);
    hosts.push(host);
    realm.attachOutbound(host);
    realm.reset({ svc: spec });
    expect(realm.construct(0, [fixture('svc')]).ok).toBe(true);
    return { realm, host };
  }

  test('an answer in time wins the race; a service that never answers loses it', async () => {
    const { realm, host } = withHost(5);
    expect(await value(realm, 'ask', ['a', 200])).toBe('pong:a');
    // The answer came first, and the learner cleared the deadline: the judge dropped its timer.
    await wait(5);
    realm.pump();
    expect(judgeTimers(realm).size).toBe(0);
    const reply = await play(realm, 'ask', ['hang', 80]);
    expect(reply !== 'unsettled' && !reply.ok && reply.error.message).toBe(
      'no answer within 80 ms',
    );
    expect(host.seen).toEqual(['svc:a', 'svc:hang']);
  });

  test('a request made in a timer’s callback goes out without anyone polling', async () => {
    const { realm, host } = withHost(1);
    expect(realm.call(0, 'askLater', ['later', 10])).toEqual({ ok: true, value: 'set' });
    realm.pump();
    await wait(80);
    expect(host.seen).toEqual(['svc:later']);
  });

  test('fixture names that look like the realm’s own channels are refused', () => {
    const realm = realmWith({ timers: true }, [SERVICE]);
    realm.attachOutbound(new FakeHost(1));
    expect(() => realm.reset({ '(timer)': spec })).toThrow(/reserved/);
  });
});

describe('skewClock', () => {
  test('shifts Date.now(), new Date() and Date() by the skew, until reset', async () => {
    const realm = realmWith({});
    const close = (actual: number, expected: number) =>
      expect(Math.abs(actual - expected)).toBeLessThan(50);
    close(now(realm, 'now'), Date.now());
    realm.skewClock(7000);
    close(now(realm, 'now'), Date.now() + 7000);
    close(now(realm, 'newDate'), Date.now() + 7000);
    const text = realm.call(0, 'dateText', []);
    expect(text.ok && typeof text.value).toBe('string');
    // Date() has second resolution: it reads 6 to 8 s ahead.
    const ahead = Date.parse(String(text.ok && text.value)) - Date.now();
    expect(ahead).toBeGreaterThan(5900);
    expect(ahead).toBeLessThan(8100);
    // A date the learner builds from a time is that time.
    expect(realm.call(0, 'given', [1234])).toEqual({ ok: true, value: 1234 });
    // Reads are counted as ever (four readings of the time; a date built from a given time is none).
    expect(realm.clockReads()).toBe(4);
    realm.skewClock(-3000);
    close(now(realm, 'now'), Date.now() - 3000);
    expect(() => realm.skewClock(NaN)).toThrow(/finite/);
    realm.reset(undefined);
    expect(realm.construct(0, []).ok).toBe(true);
    close(now(realm, 'now'), Date.now());
    close(now(realm, 'newDate'), Date.now());
  });

  test('timers run on real time, whatever the skew', async () => {
    const realm = realmWith({ timers: true });
    realm.skewClock(-7000);
    const started = performance.now();
    expect(await value(realm, 'sleep', [50])).toBe('woke');
    const took = performance.now() - started;
    // Node may fire a timer up to a millisecond early by performance.now(): its loop clock is whole ms.
    expect(took).toBeGreaterThanOrEqual(49);
    expect(took).toBeLessThan(500);
    expect(Math.abs(now(realm, 'now') - (Date.now() - 7000))).toBeLessThan(50);
  });
});
