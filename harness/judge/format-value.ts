// Renders any value the learner's code may return as short, JSON-like text.
import { isFixtureRef } from '../suite.ts';
const MAX_LENGTH = 120;
/** The items of a list shown before the rest is counted (`… 12 more`). */
export const SHOWN_ITEMS = 20;
/** Ends a value cut at MAX_LENGTH. */
export const CUT = '…';

export function formatValue(value: unknown): string {
  const text = render(value, 0);
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 1)}${CUT}` : text;
}

function render(value: unknown, depth: number): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'boolean' || typeof value === 'symbol') return String(value);
  if (typeof value === 'function') return '[Function]';
  if (depth > 3) return '…';
  // An argument that stands for a fixture: the learner's code received that fixture (a clock).
  if (isFixtureRef(value) && Object.keys(value).length === 1) return value.$fixture;
  // Read by index, never through the value's own methods: no function of the judge's is ever handed
  // to a value, even one that is not the plain copy it should be (see read in child/realm.ts).
  if (Array.isArray(value)) {
    const length = value.length;
    const shown: string[] = [];
    for (let i = 0; i < Math.min(length, SHOWN_ITEMS); i++) shown.push(render(value[i], depth + 1));
    if (length > SHOWN_ITEMS) shown.push(`… ${length - SHOWN_ITEMS} more`);
    return `[${shown.join(',')}]`;
  }
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    const keys = Object.keys(value as object);
    const shown: string[] = [];
    for (let i = 0; i < Math.min(keys.length, 10); i++) {
      const k = keys[i] as string;
      shown.push(`${key(k)}:${render((value as Record<string, unknown>)[k], depth + 1)}`);
    }
    return `{${shown.join(',')}}`;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Keys that are names need no quotes: a limiter's answer then fits on one line. */
const key = (k: string): string => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));

/** Renders an argument list without its brackets: `1, "a"`. */
export function formatArgs(args: unknown[]): string {
  const text = args.map((arg) => render(arg, 1)).join(', ');
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 1)}…` : text;
}
