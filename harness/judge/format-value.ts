// Renders any value the learner's code may return as short, JSON-like text.
import { isFixtureRef } from '../suite.ts';
const MAX_LENGTH = 120;
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
  if (Array.isArray(value)) {
    const shown = value.slice(0, 20).map((item) => render(item, depth + 1));
    if (value.length > 20) shown.push(`… ${value.length - 20} more`);
    return `[${shown.join(',')}]`;
  }
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    const entries = Object.entries(value as object).slice(0, 10);
    // Keys that are names need no quotes: a limiter's answer then fits on one line.
    const key = (k: string): string => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
    return `{${entries.map(([k, v]) => `${key(k)}:${render(v, depth + 1)}`).join(',')}}`;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Renders an argument list without its brackets: `1, "a"`. */
export function formatArgs(args: unknown[]): string {
  const text = args.map((arg) => render(arg, 1)).join(', ');
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 1)}…` : text;
}
