// Renders any value the learner's code may return as short, JSON-like text.
import { isFixtureRef } from '../suite.ts';
/** A value longer than this is cut when shown, unless the learner asked to see everything. */
export const SHOWN_LENGTH = 120;
/** Even in full, a value is cut here: a learner's answer may be huge. */
const FULL_LENGTH = 4000;
/** The items of a list shown before the rest is counted (`… 12 more`). */
export const SHOWN_ITEMS = 20;
/** Ends a value cut short. */
export const CUT = '…';

/** How much of a value to write: the short form shown by default, or everything (`--reveal`). */
interface Reach {
  length: number;
  depth: number;
}
const SHORT: Reach = { length: SHOWN_LENGTH, depth: 3 };
const FULL: Reach = { length: FULL_LENGTH, depth: 8 };

/** A value as text: short (cut at SHOWN_LENGTH), or `full` for a report that may show it whole. */
export function formatValue(value: unknown, full = false): string {
  const reach = full ? FULL : SHORT;
  return cut(render(value, 0, reach), reach.length);
}

/** Text cut to `length` characters, the last one `…` when anything was left out. */
export function cut(text: string, length = SHOWN_LENGTH): string {
  return text.length > length ? `${text.slice(0, length - 1)}${CUT}` : text;
}

/**
 * A string as JSON writes it, or in single quotes when it holds double quotes and nothing else
 * JSON would escape (a header such as `"search";r=0`, read as it is sent).
 */
function quote(text: string): string {
  const json = JSON.stringify(text);
  const plain = json.slice(1, -1).replaceAll('\\"', '"');
  return plain === text && text.includes('"') && !text.includes("'") ? `'${text}'` : json;
}

function render(value: unknown, depth: number, reach: Reach): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'boolean' || typeof value === 'symbol') return String(value);
  if (typeof value === 'function') return '[Function]';
  if (depth > reach.depth) return '…';
  // An argument that stands for a fixture: the learner's code received that fixture (a clock).
  if (isFixtureRef(value) && Object.keys(value).length === 1) return value.$fixture;
  // Read by index, never through the value's own methods: no function of the judge's is ever handed
  // to a value, even one that is not the plain copy it should be (see read in sandbox/realm.ts).
  if (Array.isArray(value)) {
    const length = value.length;
    const shown: string[] = [];
    for (let i = 0; i < Math.min(length, SHOWN_ITEMS); i++) {
      shown.push(render(value[i], depth + 1, reach));
    }
    if (length > SHOWN_ITEMS) shown.push(`… ${length - SHOWN_ITEMS} more`);
    return `[${shown.join(',')}]`;
  }
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    const keys = Object.keys(value as object);
    const shown: string[] = [];
    for (let i = 0; i < Math.min(keys.length, 10); i++) {
      const k = keys[i] as string;
      shown.push(`${key(k)}:${render((value as Record<string, unknown>)[k], depth + 1, reach)}`);
    }
    return `{${shown.join(',')}}`;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Keys that are names need no quotes: a limiter's answer then fits on one line. */
const key = (k: string): string => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));

/** Renders an argument list without its brackets: `1, "a"`. */
export function formatArgs(args: unknown[], full = false): string {
  const reach = full ? FULL : SHORT;
  return cut(args.map((arg) => render(arg, 1, reach)).join(', '), reach.length);
}

/** A time written in full (ms since the epoch) within this much of the epoch is written from it. */
const NEAR_MS = 1e9;
const FULL_TIME = /(?<![\d.])\d{13}(?![\d.])/g;

/** Text with its times in full (13 digits) near `epoch.at` written from it: `T+750`. */
export function timesFrom(text: string, epoch: { at: number; name: string }): string {
  return text.replace(FULL_TIME, (digits) => {
    const ms = Number(digits) - epoch.at;
    if (Math.abs(ms) > NEAR_MS) return digits;
    return ms === 0 ? epoch.name : `${epoch.name}${ms > 0 ? '+' : '−'}${Math.abs(ms)}`;
  });
}
