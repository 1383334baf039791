// Text that came from outside the judge (what a solution printed or threw, a line of its source, an
// argument typed on the command line) is shown escaped: a control character in it could otherwise
// clear the screen, move the cursor, ring the bell or overwrite a line with a verdict of its own.

/**
 * C0 controls, DEL, C1 controls, and the Unicode characters that reorder or break lines (bidi
 * overrides and isolates, line and paragraph separators). Newlines and tabs are handled apart.
 */
const RANGES =
  '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028-\\u202e\\u2066-\\u2069';
const CONTROL = new RegExp(`[${RANGES}]`, 'g');
/** The same, with line feed, and tab: anything at all that escapeControl may change. */
const ANY_CONTROL = new RegExp(`[${RANGES}\\n\\t]`);

const NAMED: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t', '\b': '\\b' };

/** `\x1b` for ESC, `\r` for CR, `\u202e` for the right-to-left override, and so on. */
function escapeOne(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Tabs become spaces up to the next stop of 8 columns, as a terminal would show them. */
function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const char of line) out += char === '\t' ? ' '.repeat(8 - (out.length % 8)) : char;
  return out;
}

export interface EscapeOptions {
  /** Keep line breaks (multi-line output, a stack), or show them as `\n` (one-line text). */
  multiline?: boolean;
}

/**
 * The text with every control character shown as an escape. With `multiline`, line breaks stay (a
 * CRLF becomes a plain line break) and tabs become spaces; otherwise both are escaped too, so that the
 * result is always a single line.
 */
export function escapeControl(text: string, options: EscapeOptions = {}): string {
  if (!ANY_CONTROL.test(text)) return text;
  if (!options.multiline) {
    return text.replace(CONTROL, escapeOne).replace(/[\n\t]/g, escapeOne);
  }
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => expandTabs(line).replace(CONTROL, escapeOne))
    .join('\n');
}

/** Whether the text holds anything escapeControl would change (line breaks and tabs included). */
export function hasControl(text: string): boolean {
  return ANY_CONTROL.test(text);
}

/** Echoed arguments are cut to this many characters. */
export const ARGUMENT_ROOM = 60;

/**
 * An argument the learner typed, fit to be echoed in one line: control characters escaped, then cut
 * to `room` characters with an ellipsis (a pasted file or a runaway script can pass megabytes).
 */
export function shownArgument(text: string, room: number = ARGUMENT_ROOM): string {
  // Only the part that can be shown is escaped: a huge argument costs no more than a short one.
  const head = escapeControl(text.slice(0, room + 1));
  return head.length > room ? `${head.slice(0, room - 1)}…` : head;
}
