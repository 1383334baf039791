// The only judge code that runs inside a learner's realm: the bridge. It is evaluated there from
// its source text (so each of its functions must stay self-contained: no imports, no free
// variables), before the learner's code loads, and it captures the built-ins it uses at that
// moment, so later patches cannot bend it.
//
// Everything that crosses between the judge and learner code passes through here as primitives:
// arguments arrive as primitives or text and are rebuilt in this realm; answers leave through `out`
// (an array of this realm that only this code and the judge ever see) as primitives or text. So no
// object of the judge's realm ever reaches learner code, and the judge never touches a learner
// object: it cannot be handed a getter, a proxy or a `constructor` that leads back.
//
// The bridge is built from parts, one a file in bridge/, each a function that takes what it uses
// of the others as parameters and returns what it offers: output.ts (console), outbox.ts (the one
// way out), timers.ts, clock.ts (Date, counted and skewed), codec.ts (answers into `out`),
// fixtures.ts (and the arguments that name them), calls.ts (the hot path) and async-calls.ts.
// createBridge below puts them together; bridgeSource is the text realm.ts runs.
import type { AsyncCalls } from './bridge/async-calls.ts';
import { makeAsyncCalls } from './bridge/async-calls.ts';
import type { Calls } from './bridge/calls.ts';
import { makeCalls } from './bridge/calls.ts';
import type { Clock } from './bridge/clock.ts';
import { makeClock } from './bridge/clock.ts';
import { makeCodec } from './bridge/codec.ts';
import type { Fixtures } from './bridge/fixtures.ts';
import { makeFixtures } from './bridge/fixtures.ts';
import type { Outbox } from './bridge/outbox.ts';
import { makeOutbox } from './bridge/outbox.ts';
import type { Output } from './bridge/output.ts';
import { makeOutput } from './bridge/output.ts';
import { makeTimers } from './bridge/timers.ts';

/** Reply codes the bridge's calls return; the reply itself is in out[1] on. */
export const REPLY = {
  /** out[1] is the value, a primitive. */
  primitive: 0,
  /** out[1] is the number of fields n, then out[2 + 2i] = key and out[3 + 2i] = value. */
  flatObject: 1,
  /** out[1] is the length n, then out[2 + i] = item. */
  flatArray: 2,
  /** out[1] is the value as tagged JSON text (see `TAG`). */
  json: 3,
  /** out[1] is name, out[2] message, out[3] stack, out[4] whether it was an Error. */
  threw: 4,
  /** As flatObject, but some fields the judge asked for are missing (their value is `missing`). */
  flatObjectLacking: 6,
  /**
   * out[1] is the length n of a long list of numbers (finite, no -0), out[2] a Float64Array made
   * by the bridge that holds them (the judge reads it by index only: see realm.ts).
   */
  numberList: 7,
  /** out[1] is the value as plain JSON text, with no tags: a long list of numbers and strings. */
  plainJson: 8,
} as const;

/** The most items a long list may have to cross as a list of numbers or plain JSON. */
export const LIST_MAX = 10_000_000;

/** Fields or items a reply carries in slots; larger answers travel as text. */
export const FLAT_MAX = 24;
/** Marks a value JSON cannot carry: { [TAG]: 'Infinity' | '-Infinity' | 'NaN' | '-0' | 'undefined' | text }. */
export const TAG = '\u0000kata';
/** Learner output kept per drain; the rest is counted, not stored. */
export const OUTPUT_CAP = 16_384;
/**
 * Outbound requests (see `post` in bridge/outbox.ts): how many may wait at once, how many strings
 * one may carry, and how many characters all waiting ones may carry together. The judge checks them
 * again.
 */
export const OUTBOUND_LIMITS = { waiting: 10_000, args: 10_000, chars: 8_000_000 } as const;
/**
 * The channels of the realm's timers (see bridge/timers.ts): '(timer)' carries a delay in ms and is
 * answered by the judge itself when it has passed; '(timer-clear)' carries the id of a '(timer)'
 * request the judge took and the learner cleared, and is never answered. Fixture names cannot begin
 * with '(' (the realm refuses them), so no fixture posts on these.
 */
export const TIMER_CHANNEL = '(timer)';
export const TIMER_CLEAR_CHANNEL = '(timer-clear)';
/** The longest delay a timer has, as in Node: a longer one is cut to it. */
export const TIMEOUT_MAX = 2 ** 31 - 1;

/** What the judge calls: the parts' offers, less what only other parts use. */
export interface Bridge
  extends
    Pick<Calls, 'load' | 'construct' | 'call' | 'callPlain' | 'dropInstances'>,
    Pick<Fixtures, 'addFactory' | 'makeFixture' | 'hasFixture' | 'fixtureCall' | 'status'>,
    Pick<AsyncCalls, 'begin' | 'settled'>,
    Pick<Outbox, 'takeOutbound' | 'answerOutbound'>,
    Pick<Clock, 'takeClockReads' | 'skewClock'>,
    Pick<Output, 'drainOutput'> {
  /** The slots every reply is written into (see REPLY). */
  out: unknown[];
  /** Stands for a field the answer does not have; the judge compares it by identity only. */
  missing: object;
  /** Forgets the case before: its instances, fixtures, calls, requests and timers, and the skew. */
  reset(): void;
}

/** The parts of the bridge, by the name createBridge knows them by. */
export const BRIDGE_PARTS = {
  output: makeOutput,
  outbox: makeOutbox,
  timers: makeTimers,
  clock: makeClock,
  codec: makeCodec,
  fixtures: makeFixtures,
  calls: makeCalls,
  asyncCalls: makeAsyncCalls,
};
export type BridgeParts = typeof BRIDGE_PARTS;

/**
 * Puts the parts together in the realm and returns the bridge; evaluated there from its own text
 * (see bridgeSource), so it names nothing outside itself. With `timers`, learner code gets
 * setTimeout and clearTimeout (answered through the outbound queue); without, they throw.
 */
export function createBridge(
  global: Record<string, unknown>,
  timers: boolean,
  parts: BridgeParts,
): Bridge {
  'use strict';
  const defineProperty = Object.defineProperty;
  const BaseError = Error;
  // Node formats a stack with `globalThis.Error.prepareStackTrace` of the realm the error belongs
  // to, handing it call sites of every frame, the judge's included: lock both names for good.
  defineProperty(BaseError, 'prepareStackTrace', {
    value: undefined,
    writable: false,
    configurable: false,
  });
  defineProperty(global, 'Error', { value: BaseError, writable: false, configurable: false });

  // In this order, so that the realm's global gets its names in the order it always had.
  const output = parts.output(global);
  const outbox = parts.outbox();
  const timed = parts.timers(global, timers === true, outbox, output);
  const clock = parts.clock(global);
  // queueMicrotask, here, after Date: through a promise of the realm resolved now.
  const resolved = Promise.resolve();
  global.queueMicrotask = (fn: () => void) => void resolved.then(fn);
  const codec = parts.codec(output.show);
  const fixtures = parts.fixtures(codec, outbox.post);
  const calls = parts.calls(global, codec, fixtures.rebuild);
  const asyncCalls = parts.asyncCalls(codec, calls.invoke);
  // Taken now: the bridge reads nothing of the parts' after learner code loads.
  const resetCalls = calls.reset;
  const resetFixtures = fixtures.reset;
  const resetAsync = asyncCalls.reset;
  const resetOutbox = outbox.reset;
  const resetTimers = timed.reset;
  const resetClock = clock.reset;
  return {
    out: codec.out,
    missing: codec.missing,
    load: calls.load,
    addFactory: fixtures.addFactory,
    reset() {
      resetCalls();
      resetFixtures();
      resetAsync();
      resetOutbox();
      resetTimers();
      resetClock();
    },
    makeFixture: fixtures.makeFixture,
    hasFixture: fixtures.hasFixture,
    construct: calls.construct,
    call: calls.call,
    callPlain: calls.callPlain,
    fixtureCall: fixtures.fixtureCall,
    status: fixtures.status,
    dropInstances: calls.dropInstances,
    drainOutput: output.drainOutput,
    takeClockReads: clock.takeClockReads,
    begin: asyncCalls.begin,
    settled: asyncCalls.settled,
    takeOutbound: outbox.takeOutbound,
    answerOutbound: outbox.answerOutbound,
    skewClock: clock.skewClock,
  };
}

/**
 * The program realm.ts runs in a fresh realm before anything else: createBridge applied to the
 * realm's global and to every part, each evaluated from its own text there.
 */
export function bridgeSource(timers: boolean): string {
  const parts = Object.entries(BRIDGE_PARTS).map(([name, make]) => `${name}: (${String(make)})`);
  return `(${String(createBridge)})(globalThis, ${String(timers)}, { ${parts.join(', ')} })`;
}
