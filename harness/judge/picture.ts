// Builds a failing case's picture from what its suite declares (Suite.picture): the calls of the
// wrong call's lane around it, the windows at it and the level over time, as plain data for the
// parent to draw at the screen's width (harness/terminal/picture.ts). It reads the case's calls and
// the reference's answers, never the learner's objects: only the wrong call's own answer is theirs.
import { formatArgs, formatValue, timesFrom } from './format-value.ts';
import type { PictureData } from './outcome.ts';
import {
  isThrows,
  type Call,
  type CallSource,
  type FixtureSpec,
  type Moment,
  type PictureReader,
} from '../suite.ts';

/** Level samples taken over the picture's span (the widest screen has fewer columns). */
export const LEVEL_SAMPLES = 100;
/** Calls of the wrong call's lane kept before it: a picture shows a few windows, not a day. */
const MARKS_KEPT = 400;
/** Without a window to frame it, the picture reaches back over this many calls of the lane. */
const CALLS_BACK = 12;
/** The least span of time shown, in the axis's unit. */
const MIN_SPAN = 10;

/** What the wrong call did: its answer, or what it threw. */
export type WrongAnswer = { value: unknown } | { threw: string };

const STOP = Symbol('stop');
/**
 * Wall time the picture may take in all, its readings of the calls together: a case of millions of
 * calls that went wrong late is not drawn, rather than brought near its kill deadline.
 */
export const PICTURE_BUDGET_MS = 300;
const OVER_BUDGET = Symbol('over budget');

/**
 * Plays `source` up to and including call `last`, handing each call to `visit`; throws OVER_BUDGET
 * once the time is past `deadline` (performance.now()).
 */
function playTo(
  source: CallSource,
  last: number,
  deadline: number,
  visit: (call: Call, index: number) => void,
): void {
  let index = 0;
  try {
    source((call) => {
      visit(call, index);
      if (index++ >= last) throw STOP;
      if ((index & 4095) === 0 && performance.now() > deadline) throw OVER_BUDGET;
    });
  } catch (error) {
    if (error !== STOP) throw error;
  }
}

/** How an answer is said under the picture. */
function say(reader: PictureReader, answer: unknown): string {
  if (isThrows(answer)) return `throws ${answer.throws}`;
  return reader.say ? reader.say(answer) : formatValue(answer);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Expected and actual for the line under the picture: of two objects, only the fields that differ
 * (the whole of both rarely fits on one line).
 */
function sayBoth(
  reader: PictureReader,
  expected: unknown,
  actual: WrongAnswer,
): { expected: string; actual: string } {
  if ('threw' in actual)
    return { expected: say(reader, expected), actual: `throws ${actual.threw}` };
  const got = actual.value;
  if (reader.say === undefined && isRecord(expected) && isRecord(got) && !isThrows(expected)) {
    const fields = Object.keys(expected).filter(
      (key) => !Object.hasOwn(got, key) || formatValue(expected[key]) !== formatValue(got[key]),
    );
    const of = (answer: Record<string, unknown>): string =>
      fields
        .map((key) => `${key} ${Object.hasOwn(answer, key) ? formatValue(answer[key]) : '(none)'}`)
        .join(', ');
    if (fields.length > 0) return { expected: of(expected), actual: of(got) };
  }
  return { expected: say(reader, expected), actual: say(reader, got) };
}

/**
 * The picture of a case whose call `wrong.at` of `source` answered `wrong.actual` where the
 * reference answered that call's `expected` (`wrong.shown`: its row in the call table); undefined
 * when the suite declares none.
 */
export function buildPicture(
  declared: ((fixtures: Record<string, FixtureSpec>) => PictureReader) | undefined,
  fixtures: Record<string, FixtureSpec> | undefined,
  source: CallSource,
  className: string,
  wrong: { at: number; shown: number; actual: WrongAnswer },
): PictureData | undefined {
  if (declared === undefined) return undefined;
  const deadline = performance.now() + PICTURE_BUDGET_MS;
  try {
    return drawn(declared, fixtures, source, className, wrong, deadline);
  } catch (error) {
    if (error === OVER_BUDGET) return undefined;
    throw error;
  }
}

function drawn(
  declared: (fixtures: Record<string, FixtureSpec>) => PictureReader,
  fixtures: Record<string, FixtureSpec> | undefined,
  source: CallSource,
  className: string,
  wrong: { at: number; shown: number; actual: WrongAnswer },
  deadline: number,
): PictureData | undefined {
  const { at: wrongAt, actual } = wrong;
  const makeReader = (): PictureReader => declared(fixtures ?? {});
  const reader = makeReader();
  const moments: (Moment & { index: number })[] = [];
  let first: number | undefined;
  let wrongCall: Call | undefined;
  playTo(source, wrongAt, deadline, (call, index) => {
    const moment = reader.read(call);
    if (moment.mark !== undefined) first ??= moment.at;
    moments.push({ ...moment, index });
    // Only the recent calls can be drawn: the rest are dropped in bulk, to stay cheap.
    if (moments.length > 4 * MARKS_KEPT) moments.splice(0, moments.length - MARKS_KEPT);
    if (index === wrongAt) wrongCall = { ...call, args: [...call.args] };
  });
  const last = moments[moments.length - 1];
  if (last === undefined || wrongCall === undefined || last.index !== wrongAt) return undefined;
  // A call of no lane (a spy asked what it saw) is drawn with the lane of the last call before it.
  const lane = last.lane ?? [...moments].reverse().find((m) => m.mark !== undefined)?.lane ?? '';
  const ofLane = moments.filter((m) => (m.lane ?? '') === lane && m.mark !== undefined);
  const windows = reader.windows?.(last.at, lane) ?? [];
  const until = reader.until?.(lane);
  const reach = until !== undefined && Number.isFinite(until) && until > last.at ? [until] : [];
  const [from, to] = span(last.at, windows, ofLane, reach);
  const marks = ofLane
    .filter((m) => m.at >= from && m.at <= to)
    .map((m) => ({ at: m.at, mark: m.mark as string }));
  const origin = reader.origin?.() ?? (first !== undefined ? { at: first, name: '' } : undefined);
  const picture: PictureData = {
    from,
    to,
    unit: reader.unit ?? 'ms',
    marks,
    windows,
    wrong: {
      at: last.at,
      index: wrong.shown,
      call:
        wrongCall.method === className
          ? `new ${className}(${formatArgs(wrongCall.args)})`
          : `${wrongCall.method}(${formatArgs(wrongCall.args)})`,
      ...sayBoth(reader, wrongCall.expected, actual),
    },
  };
  if (origin !== undefined) picture.origin = origin;
  // Times from a named origin (Redis's T) are said from it under the picture too.
  if (origin !== undefined && origin.name !== '') {
    picture.wrong.expected = timesFrom(picture.wrong.expected, origin);
    picture.wrong.actual = timesFrom(picture.wrong.actual, origin);
  }
  if (reader.level !== undefined) {
    picture.level = sampleLevel(makeReader, source, wrongAt, deadline, lane, from, to);
  }
  return picture;
}

/**
 * The times shown: the windows and the wrong call, or the last few calls of its lane when there is
 * no window, with a margin on each side.
 */
function span(
  at: number,
  windows: { from: number; to: number }[],
  marks: Moment[],
  reach: number[],
): [number, number] {
  let from = at;
  let to = Math.max(at, ...reach);
  for (const w of windows) {
    from = Math.min(from, w.from);
    to = Math.max(to, w.to);
  }
  if (windows.length === 0) {
    const back = marks[Math.max(0, marks.length - 1 - CALLS_BACK)];
    if (back !== undefined) from = Math.min(from, back.at);
  }
  // Calls at one instant or nearly: a span of a few units, so that ticks fall on whole ones.
  if (to - from < MIN_SPAN) return [(from + to) / 2 - MIN_SPAN / 2, (from + to) / 2 + MIN_SPAN / 2];
  const margin = (to - from) / 12;
  return [from - margin, to + margin];
}

/**
 * The level at LEVEL_SAMPLES evenly spaced times over [from, to], read on a fresh reader played up
 * to the wrong call: a sample sees the calls made before its time (after the wrong call: up to it).
 */
function sampleLevel(
  makeReader: () => PictureReader,
  source: CallSource,
  wrongAt: number,
  deadline: number,
  lane: string,
  from: number,
  to: number,
): NonNullable<PictureData['level']> {
  // A call's time is known only once it is read, and a sample before it must not see it: one
  // reader goes a call ahead to tell the time, the other samples, then reads the call too.
  const ahead = makeReader();
  const reader = makeReader();
  const level = reader.level as NonNullable<PictureReader['level']>;
  const step = (to - from) / (LEVEL_SAMPLES - 1);
  const samples: (number | null)[] = [];
  const takeUntil = (before: number): void => {
    while (samples.length < LEVEL_SAMPLES && from + samples.length * step < before) {
      const value = level.at(from + samples.length * step, lane);
      samples.push(Number.isFinite(value) ? value : null);
    }
  };
  playTo(source, wrongAt, deadline, (call) => {
    const { at } = ahead.read(call);
    takeUntil(at);
    reader.read(call);
  });
  // On to the end, on the calls up to the wrong one (no later call is read).
  takeUntil(Infinity);
  return { name: level.name, capacity: level.capacity(lane), samples };
}
